import type { EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  applyEvents,
  rebuildProjections,
  type ReadStore,
} from '@tollgate/read-store';
import type { TaskPlatform, TaskRefunded } from '@tollgate/domain';
import { ALL_PROJECTIONS } from '../projection-registry';
import { ALL_TOTALS, LOG_TOTALS, LOGS, userTotalsId } from './log.document';
import { logStore } from './log-store';
import { logsProjection } from './logs.projection';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};
const at = Date.parse(meta.occurredAt) / 1000;

const registered = {
  type: 'UserRegistered',
  data: {
    userId: 7,
    username: 'alice',
    displayName: 'alice',
    passwordHash: 'x',
    role: 1,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: 'c7',
    source: 'register',
  },
};
/** A task's charge: an ordinary receipt naming the task, on the task's stream. */
const charge = (platform: TaskPlatform, taskId: string, quota: number, groupRatio = 1) => ({
  type: 'RequestRelayed',
  data: usageReceipt({
    requestId: taskId,
    userId: 7,
    tokenId: 0,
    tokenName: '',
    model: platform === 'midjourney' ? 'mj_imagine' : 'suno_music',
    channelId: 5,
    promptTokens: 0,
    completionTokens: 0,
    quota,
    groupRatio,
    modelPrice: platform === 'midjourney' ? 0.1 : 0.2,
    task: {
      platform,
      action: platform === 'midjourney' ? 'IMAGINE' : 'MUSIC',
      upstreamTaskId: `up-${taskId}`,
    },
  }),
});
const refund = (platform: TaskPlatform, taskId: string, quota: number) => ({
  type: 'TaskRefunded',
  data: {
    taskId,
    platform,
    upstreamTaskId: `up-${taskId}`,
    userId: 7,
    tokenId: 0,
    channelId: 5,
    model: platform === 'midjourney' ? 'mj_imagine' : 'suno_music',
    quota,
    refundedTime: at,
  } satisfies TaskRefunded['data'],
});

describe('logs projection: task charges and refunds', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  const totals = async () =>
    (await read.collection(LOG_TOTALS).find({}, { sort: { _id: 1 } })).map((t) => [
      t._id,
      t['quota'],
    ]);

  async function seed() {
    await appendEvents(events, 'user-7', [registered], meta);
    await appendEvents(
      events,
      'usage-p-1',
      [{ type: 'RequestRelayed', data: usageReceipt({ userId: 7, quota: 10 }) }],
      meta,
    );
    await appendEvents(events, 'task-a', [charge('midjourney', 'a', 300)], meta);
    await appendEvents(events, 'task-b', [charge('suno', 'b', 200, 1.5)], meta);
    await appendEvents(events, 'task-b', [refund('suno', 'b', 200)], meta);
    const last = await appendEvents(events, 'task-a', [refund('midjourney', 'a', 300)], meta);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
  }

  it("names a task charge's action (and Midjourney's task id) as new-api does", async () => {
    await seed();
    const rows = await logStore(read).find({ type: 2 }, { sort: { id: 1 } });
    expect(rows.map((r) => [r.model_name, r.quota, r.content])).toEqual([
      ['gpt-4o-mini', 10, ''],
      ['mj_imagine', 300, '模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID up-a'],
      ['suno_music', 200, '模型固定价格 0.20，分组倍率 1.50，操作 MUSIC'],
    ]);
  });

  it('a refund is a system row naming model, channel and quota; the totals lose the refunded quota', async () => {
    await seed();
    const rows = await logStore(read).find({ type: 4 }, { sort: { id: 1 } });
    expect(rows).toEqual([
      expect.objectContaining({
        user_id: 7,
        username: 'alice',
        model_name: 'suno_music',
        channel: 5,
        quota: 200,
        created_at: at,
        content: '异步任务执行失败 up-b，补偿 200 额度',
      }),
      expect.objectContaining({
        user_id: 7,
        model_name: 'mj_imagine',
        quota: 300,
        content: '构图失败 up-a，补偿 300 额度',
      }),
    ]);
    expect(await totals()).toEqual([
      [ALL_TOTALS, 10],
      [userTotalsId(7), 10],
    ]);
    expect(logsProjection.version).toBeGreaterThanOrEqual(4);
  });

  it('replays change nothing; a rebuild equals incremental application; a clear leaves 0', async () => {
    await seed();
    const snapshot = async () => ({
      logs: await logStore(read).find({}, { sort: { id: 1 } }),
      totals: await totals(),
    });
    const once = await snapshot();
    const replay = [
      ...(await events.readStream('usage-p-1')),
      ...(await events.readStream('task-a')),
      ...(await events.readStream('task-b')),
    ].sort((a, b) => Number(a.position.commit - b.position.commit));
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(logsProjection, replay, session, { atomicTransactions }),
      );
    expect(await snapshot()).toEqual(once);

    await host.stop();
    await rebuildProjections(events, read, ALL_PROJECTIONS);
    expect(await snapshot()).toEqual(once);
    host = new ProjectionHost(events, read, ALL_PROJECTIONS);
    await host.start();

    // The cleared refunds leave the totals with their charges: nothing is left, not −500.
    const cleared = await appendEvents(
      events,
      'logs',
      [{ type: 'LogsCleared', data: { before: at + 1, count: 6 } }],
      meta,
    );
    expect(await host.waitFor(cleared.position, 2000)).toBe(true);
    expect(await read.collection(LOGS).count({})).toBe(0);
    expect(await totals()).toEqual([
      [ALL_TOTALS, 0],
      [userTotalsId(7), 0],
    ]);
  });
});
