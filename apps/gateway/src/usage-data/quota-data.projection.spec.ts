import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, rebuildProjections, type ReadStore } from '@tollgate/read-store';
import type { RequestRelayed, TaskRefunded } from '@tollgate/domain';
import {
  QUOTA_DATA,
  QUOTA_DATA_TOTAL,
  type QuotaDataDocument,
  type QuotaDataTotalDocument,
} from './quota-data.document';
import { quotaDataProjection } from './quota-data.projection';
import { usageReceipt } from '@tollgate/testing/usage-receipt';

const HOUR_8 = Date.parse('2026-01-15T08:00:00.000Z') / 1000;
const metaAt = (iso: string) => ({
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: iso,
});

const relayed = (userId: number, model: string, quota: number): RequestRelayed['data'] =>
  usageReceipt({ userId, model, quota, useTimeMs: 5, ip: '' });

describe('quota_data projection', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  const append = (stream: string, type: string, data: unknown, iso = '2026-01-15T08:10:00.000Z') =>
    events.append(stream, [{ id: randomUUID(), type, data, metadata: metaAt(iso) }], 'any');
  const rows = () =>
    read
      .collection<QuotaDataDocument>(QUOTA_DATA)
      .find({}, { sort: { created_at: 1, model_name: 1 } });
  const totals = () =>
    read
      .collection<QuotaDataTotalDocument>(QUOTA_DATA_TOTAL)
      .find({}, { sort: { created_at: 1, model_name: 1 } });

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost([quotaDataProjection]));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  async function seed() {
    await append('user-7', 'UserRegistered', { userId: 7, username: 'alice' });
    await append('usage-p-1', 'RequestRelayed', relayed(7, 'm1', 30));
    await append('usage-p-1', 'RequestRelayed', relayed(7, 'm1', 12), '2026-01-15T08:59:59.000Z');
    await append('usage-p-1', 'RequestRelayed', relayed(7, 'm2', 5));
    await append('usage-p-1', 'RequestRelayed', relayed(7, 'm1', 1), '2026-01-15T09:00:00.000Z');
    await append('user-8', 'UserRegistered', { userId: 8, username: 'bob' });
    await append('usage-p-2', 'RequestRelayed', relayed(8, 'm1', 100));
    await append('options', 'OptionChanged', {
      key: 'DataExportEnabled',
      value: 'false',
      previous: 'true',
    });
    await append('usage-p-1', 'RequestRelayed', relayed(7, 'm1', 1000));
    const last = await append('user-7', 'UserRenamed', { userId: 7, from: 'alice', to: 'alicia' });
    expect(await host.waitFor(last.position, 2000)).toBe(true);
  }

  it('sums count, quota and tokens per user × model × hour while the export is on', async () => {
    await seed();
    const alice = (await rows()).filter((r) => r.user_id === 7);
    expect(alice.map(({ _id, ...r }) => r)).toEqual([
      {
        user_id: 7,
        username: 'alice',
        model_name: 'm1',
        created_at: HOUR_8,
        count: 2,
        quota: 42,
        token_used: 30,
      },
      {
        user_id: 7,
        username: 'alice',
        model_name: 'm2',
        created_at: HOUR_8,
        count: 1,
        quota: 5,
        token_used: 15,
      },
      {
        user_id: 7,
        username: 'alice',
        model_name: 'm1',
        created_at: HOUR_8 + 3600,
        count: 1,
        quota: 1,
        token_used: 15,
      },
    ]);
  });

  it('keeps the same sums over every user per model × hour', async () => {
    await seed();
    expect((await rows()).filter((r) => r.user_id === 8)).toHaveLength(1);
    expect((await totals()).map(({ _id, ...r }) => r)).toEqual([
      { model_name: 'm1', created_at: HOUR_8, count: 3, quota: 142, token_used: 45 },
      { model_name: 'm2', created_at: HOUR_8, count: 1, quota: 5, token_used: 15 },
      { model_name: 'm1', created_at: HOUR_8 + 3600, count: 1, quota: 1, token_used: 15 },
    ]);
  });

  it('a rebuild equals incremental application', async () => {
    await seed();
    const incremental = await rows();
    const incrementalTotals = await totals();
    await host.stop();
    await rebuildProjections(events, read, [quotaDataProjection]);
    expect(await rows()).toEqual(incremental);
    expect(await totals()).toEqual(incrementalTotals);
    expect(incrementalTotals.length).toBeGreaterThan(0);
    host = new ProjectionHost(events, read, [quotaDataProjection]);
    await host.start();
  });

  it("a task refund takes its quota out of its model's row in the refund's hour; the count stays", async () => {
    await append('user-7', 'UserRegistered', { userId: 7, username: 'alice' });
    const charge = usageReceipt({
      userId: 7,
      model: 'mj_imagine',
      quota: 300,
      promptTokens: 0,
      completionTokens: 0,
      task: { platform: 'midjourney', action: 'IMAGINE', upstreamTaskId: 'mj-a' },
    });
    await append('task-a', 'RequestRelayed', charge, '2026-01-15T08:50:00.000Z');
    await append('task-b', 'RequestRelayed', { ...charge, requestId: 'b', quota: 100 });
    const refund = (taskId: string, quota: number): TaskRefunded['data'] => ({
      taskId,
      platform: 'midjourney',
      upstreamTaskId: `mj-${taskId}`,
      userId: 7,
      tokenId: 1,
      channelId: 1,
      model: 'mj_imagine',
      quota,
      refundedTime: 0,
    });
    await append('task-b', 'TaskRefunded', refund('b', 100), '2026-01-15T08:55:00.000Z');
    const last = await append(
      'task-a',
      'TaskRefunded',
      refund('a', 300),
      '2026-01-15T09:05:00.000Z',
    );
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    const strip = ({ _id, ...r }: { _id: string }) => r;
    expect((await rows()).map(strip)).toEqual([
      {
        user_id: 7,
        username: 'alice',
        model_name: 'mj_imagine',
        created_at: HOUR_8,
        count: 2,
        quota: 300,
        token_used: 0,
      },
      {
        user_id: 7,
        username: 'alice',
        model_name: 'mj_imagine',
        created_at: HOUR_8 + 3600,
        count: 0,
        quota: -300,
        token_used: 0,
      },
    ]);
    expect((await totals()).map(strip)).toEqual([
      { model_name: 'mj_imagine', created_at: HOUR_8, count: 2, quota: 300, token_used: 0 },
      { model_name: 'mj_imagine', created_at: HOUR_8 + 3600, count: 0, quota: -300, token_used: 0 },
    ]);
    expect(quotaDataProjection.version).toBeGreaterThanOrEqual(3);
  });
});
