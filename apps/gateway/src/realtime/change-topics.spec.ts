import type { RecordedEvent } from '@tollgate/event-store';
import { pushesFor } from './change-topics';

const recorded = (type: string, data: unknown): RecordedEvent => ({
  id: 'x',
  type,
  data,
  metadata: {},
  streamId: 's',
  revision: 0,
  position: { commit: 1n, prepare: 1n },
  recordedAt: new Date(0),
});

describe('pushesFor', () => {
  it('tells admins and the user concerned, once per user and batch, without data', () => {
    const pushes = pushesFor('users', [
      recorded('UserRoleChanged', { userId: 5, from: 1, to: 10 }),
      recorded('QuotaGranted', { userId: 5, amount: 9 }),
      recorded('UserRegistered', { userId: 6, passwordHash: 'secret' }),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'users', id: 5 } },
      { to: 'user:5', event: { topic: 'self', id: 5 } },
      { to: 'admins', event: { topic: 'users', id: 6 } },
      { to: 'user:6', event: { topic: 'self', id: 6 } },
    ]);
    expect(JSON.stringify(pushes)).not.toContain('secret');
  });

  it('option changes refresh the status of everyone and the option list of root', () => {
    expect(
      pushesFor('options', [
        recorded('SecretOptionChanged', { key: 'SMTPToken', sealed: { cipher: 'c', hash: 'h' } }),
      ]),
    ).toEqual([
      { to: 'everyone', event: { topic: 'status' } },
      { to: 'root', event: { topic: 'options' } },
    ]);
  });

  it('channel changes reach admins only, never with data; usage receipts push nothing', () => {
    const pushes = pushesFor('channels', [
      recorded('ChannelCreated', { channelId: 3, key: { cipher: 'sealed', hash: 'h' } }),
      recorded('ChannelTested', { channelId: 3 }),
      recorded('RequestRelayed', { channelId: 3, quota: 5 }),
      recorded('RoutingRebuildRequested', {}),
    ]);
    expect(pushes).toEqual([
      { to: 'admins', event: { topic: 'channels', id: 3 } },
      { to: 'admins', event: { topic: 'channels' } },
    ]);
    expect(pushesFor('channels', [recorded('RequestRelayed', { channelId: 3 })])).toEqual([]);
  });
});
