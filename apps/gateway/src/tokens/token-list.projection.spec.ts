import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, applyEvents, type ReadStore } from '@tollgate/read-store';
import type { TaskRefunded, TokenCreated } from '@tollgate/domain';
import { ALL_PROJECTIONS } from '../projection-registry';
import { TOKENS, type TokenDocument } from './token.document';
import { tokenListProjection } from './token-list.projection';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};

const tokenCreated = (tokenId: number, remainQuota: number): TokenCreated => ({
  type: 'TokenCreated',
  data: {
    tokenId,
    userId: 7,
    sealedKey: { cipher: 'c', hash: 'h' },
    keyHash: `sha${tokenId}`,
    createdTime: 0,
    name: `t${tokenId}`,
    expiredTime: -1,
    remainQuota,
    unlimitedQuota: false,
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: [],
    group: '',
    rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  },
});
/** A Suno task's charge: an ordinary receipt with `task`, on the task's stream. */
const charge = (taskId: string, tokenId: number, quota: number) => ({
  type: 'RequestRelayed',
  data: usageReceipt({
    requestId: taskId,
    userId: 7,
    tokenId,
    model: 'suno_music',
    promptTokens: 0,
    completionTokens: 0,
    quota,
    modelPrice: 0.1,
    task: { platform: 'suno', action: 'MUSIC', upstreamTaskId: `up-${taskId}` },
  }),
});
const refund = (taskId: string, tokenId: number, quota: number) => ({
  type: 'TaskRefunded',
  data: {
    taskId,
    platform: 'suno',
    upstreamTaskId: `up-${taskId}`,
    userId: 7,
    tokenId,
    channelId: 1,
    model: 'suno_music',
    quota,
    refundedTime: 0,
  } satisfies TaskRefunded['data'],
});

describe('tokens projection: task refunds', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  it("a refund gives the token's remain_quota back and takes used_quota down; token 0 changes nothing", async () => {
    await appendEvents(events, 'token-3', [tokenCreated(3, 1000)], meta);
    await appendEvents(events, 'token-4', [tokenCreated(4, 1000)], meta);
    await appendEvents(events, 'task-a', [charge('a', 3, 400)], meta);
    await appendEvents(events, 'task-b', [charge('b', 0, 50)], meta);
    const charged = await appendEvents(events, 'task-c', [charge('c', 3, 100)], meta);
    expect(await host.waitFor(charged.position, 2000)).toBe(true);
    const tokens = read.collection<TokenDocument>(TOKENS);
    expect(await tokens.get('3')).toMatchObject({ remain_quota: 500, used_quota: 500 });
    // Lowered by its owner below what the refund gives back: the token ends above its cap.
    await appendEvents(
      events,
      'token-3',
      [{ type: 'TokenUpdated', data: { ...tokenCreated(3, 200).data } }],
      meta,
    );
    await appendEvents(events, 'task-b', [refund('b', 0, 50)], meta);
    const refunded = await appendEvents(events, 'task-a', [refund('a', 3, 400)], meta);
    expect(await host.waitFor(refunded.position, 2000)).toBe(true);
    const once = await tokens.find({}, { sort: { id: 1 } });
    expect(once.map((t) => [t.id, t.remain_quota, t.used_quota])).toEqual([
      [3, 600, 100],
      [4, 1000, 0],
    ]);
    expect(tokenListProjection.version).toBeGreaterThanOrEqual(2);

    const replay = [
      ...(await events.readStream('token-3')),
      ...(await events.readStream('task-a')),
      ...(await events.readStream('task-b')),
      ...(await events.readStream('task-c')),
    ].sort((a, b) => Number(a.position.commit - b.position.commit));
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(tokenListProjection, replay, session, { atomicTransactions }),
      );
    expect(await tokens.find({}, { sort: { id: 1 } })).toEqual(once);
  });
});
