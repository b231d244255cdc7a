import { recordedEvent } from '@tollgate/testing/recorded-event';
import { pushesFor } from './change-topics';

describe('pushesFor', () => {
  it('tells admins and the user concerned, once per user and batch, without data', () => {
    const pushes = pushesFor('users', [
      recordedEvent('UserRoleChanged', { userId: 5, from: 1, to: 10 }),
      recordedEvent('QuotaGranted', { userId: 5, amount: 9 }),
      recordedEvent('UserRegistered', { userId: 6, passwordHash: 'secret' }),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'users', id: 5 } },
      { to: 'user:5', event: { topic: 'self', id: 5 } },
      { to: 'admins', event: { topic: 'users', id: 6 } },
      { to: 'user:6', event: { topic: 'self', id: 6 } },
    ]);
    expect(JSON.stringify(pushes)).not.toContain('secret');
  });

  it('usage receipts: each user hears of their balance, admins once per batch whatever the users', () => {
    const receipts = Array.from({ length: 1000 }, (_, i) =>
      recordedEvent('RequestRelayed', { userId: i + 1, quota: 5 }),
    );
    const pushes = pushesFor('users', [
      ...receipts,
      recordedEvent('UserRoleChanged', { userId: 7, from: 1, to: 10 }),
    ]);
    expect(pushes.filter((p) => p.to === 'admins')).toEqual([
      { to: 'admins', event: { topic: 'users' } },
      { to: 'admins', event: { topic: 'users', id: 7 } },
    ]);
    expect(pushes.filter((p) => p.to !== 'admins')).toHaveLength(1000);
    expect(pushes).toContainEqual({ to: 'user:1000', event: { topic: 'self', id: 1000 } });
  });

  it('option changes refresh the status of everyone and the option list of root', () => {
    expect(
      pushesFor('options', [
        recordedEvent('SecretOptionChanged', {
          key: 'SMTPToken',
          sealed: { cipher: 'c', hash: 'h' },
        }),
      ]),
    ).toEqual([
      { to: 'everyone', event: { topic: 'status' } },
      { to: 'root', event: { topic: 'options' } },
    ]);
  });

  it('channel changes reach admins only, never with data; usage receipts push nothing', () => {
    const pushes = pushesFor('channels', [
      recordedEvent('ChannelCreated', { channelId: 3, key: { cipher: 'sealed', hash: 'h' } }),
      recordedEvent('ChannelTested', { channelId: 3 }),
      recordedEvent('RequestRelayed', { channelId: 3, quota: 5 }),
      recordedEvent('RoutingRebuildRequested', {}),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'channels', id: 3 } },
      { to: 'admins', event: { topic: 'channels' } },
    ]);
    expect(pushesFor('channels', [recordedEvent('RequestRelayed', { channelId: 3 })])).toEqual([]);
  });

  it('task refunds only move used_quota: no push to the channel list', () => {
    expect(
      pushesFor('channels', [recordedEvent('TaskRefunded', { channelId: 3, userId: 5, quota: 5 })]),
    ).toEqual([]);
  });
});

describe('pushesFor (tokens, redemptions, logs)', () => {
  it('token changes tell the owner and admins, one push per batch whatever the count', () => {
    const created = (tokenId: number) =>
      recordedEvent('TokenCreated', { tokenId, userId: 4, sealedKey: { cipher: 'c', hash: 'h' } });
    const pushes = pushesFor('tokens', [created(1), created(2), created(3)]);
    expect(pushes).toEqual([
      { to: 'user:4', event: { topic: 'tokens' } },
      { to: 'admins', event: { topic: 'tokens' } },
    ]);
    expect(JSON.stringify(pushes)).not.toContain('cipher');
  });

  it('codes concern admins only; log rows the user and admins; registrations add no row', () => {
    expect(
      pushesFor('redemptions', [
        recordedEvent('RedemptionRedeemed', { redemptionId: 2, userId: 9 }),
      ]),
    ).toEqual([{ to: 'admins', event: { topic: 'redemptions' } }]);
    expect(
      pushesFor('logs', [
        recordedEvent('UserRegistered', { userId: 9 }),
        recordedEvent('QuotaGranted', { userId: 9, amount: 5 }),
      ]),
    ).toEqual([
      { to: 'user:9', event: { topic: 'logs' } },
      { to: 'admins', event: { topic: 'logs' } },
    ]);
    expect(pushesFor('logs', [recordedEvent('LogsCleared', { before: 5, count: 1 })])).toEqual([
      { to: 'everyone', event: { topic: 'logs' } },
    ]);
    const archived = recordedEvent('UsageArchived', { source: 'usage-p-2026011508', hourStart: 0 });
    expect(pushesFor('logs', [archived])).toEqual([{ to: 'everyone', event: { topic: 'logs' } }]);
    const summary = recordedEvent('UsageSummarized', { source: 'usage-p-2026011508', rows: [] });
    expect(pushesFor('channels', [summary])).toEqual([]);
  });
});

describe('pushesFor (quota-data)', () => {
  it('usage receipts tell the user and admins that the dashboard rows moved, once per batch', () => {
    expect(
      pushesFor('quota-data', [
        recordedEvent('UserRegistered', { userId: 9, username: 'u9' }),
        recordedEvent('RequestRelayed', { userId: 9, quota: 5 }),
        recordedEvent('RequestRelayed', { userId: 9, quota: 7 }),
        recordedEvent('RequestRelayed', { userId: 4, quota: 1 }),
      ]),
    ).toEqual([
      { to: 'user:9', event: { topic: 'usage' } },
      { to: 'admins', event: { topic: 'usage' } },
      { to: 'user:4', event: { topic: 'usage' } },
    ]);
  });
});

describe('pushesFor (task-log)', () => {
  it("every task event reaches its owner (named in the event) and admins, never 'everyone'", () => {
    const ref = { taskId: 't1', userId: 5, platform: 'suno' };
    const pushes = pushesFor('task-log', [
      recordedEvent('TaskProgressed', { ...ref, snapshot: { status: 'IN_PROGRESS' } }),
      recordedEvent('TaskSucceeded', { ...ref, snapshot: { status: 'SUCCESS', prompt: 'secret' } }),
      recordedEvent('TaskFailed', { ...ref, userId: 6, reason: 'x', cause: 'timeout' }),
      recordedEvent('TaskRefunded', { ...ref, userId: 6, quota: 5 }),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'tasks' } },
      { to: 'user:5', event: { topic: 'tasks' } },
      { to: 'user:6', event: { topic: 'tasks' } },
    ]);
    expect(JSON.stringify(pushes)).not.toContain('secret');
  });
});

describe('pushesFor (channel-performance)', () => {
  it('tells admins once per batch that the channel figures moved', () => {
    expect(
      pushesFor('channel-performance', [
        recordedEvent('RequestRelayed', { userId: 9, channelId: 1 }),
        recordedEvent('RequestFailed', { userId: 4, channelId: 2 }),
      ]),
    ).toEqual([{ to: 'admins', event: { topic: 'performance' } }]);
  });
});
