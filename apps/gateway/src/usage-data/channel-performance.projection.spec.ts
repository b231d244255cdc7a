import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { randomUUID } from 'node:crypto';
import type { EventStore } from '@tollgate/event-store';
import type { ProjectionHost, ReadStore } from '@tollgate/read-store';
import type { RequestFailed } from '@tollgate/domain';
import {
  CHANNEL_PERFORMANCE,
  type ChannelPerformanceDocument,
} from './channel-performance.document';
import { channelPerformanceProjection } from './channel-performance.projection';
import { bucketOf } from './latency-histogram';

const AT_0805 = Date.parse('2026-01-15T08:05:00.000Z') / 1000;
const AT_0810 = AT_0805 + 300;
const metaAt = (iso: string) => ({
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: iso,
});

const failed = (channelChain: number[], model = 'm1'): RequestFailed['data'] => ({
  requestId: randomUUID(),
  userId: 1,
  tokenId: 1,
  tokenName: 't',
  group: 'default',
  model,
  channelId: channelChain.at(-1) ?? 0,
  channelChain,
  endpoint: '/v1/chat/completions',
  status: 500,
  message: 'boom',
  retries: channelChain.length - 1,
  useTimeMs: 40,
  stream: false,
  ip: '',
  quota: 0,
});

describe('channel_performance projection', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  const append = (type: string, data: unknown, iso = '2026-01-15T08:07:00.000Z') =>
    events.append('usage-p-1', [{ id: randomUUID(), type, data, metadata: metaAt(iso) }], 'any');
  const rows = async () =>
    (
      await read
        .collection<ChannelPerformanceDocument>(CHANNEL_PERFORMANCE)
        .find({}, { sort: { created_at: 1, channel_id: 1, model: 1 } })
    ).map(({ _id, ...row }) => row);

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost([channelPerformanceProjection]));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  it('counts attempts, failures and answers per channel × model × 5 minutes, with histograms', async () => {
    await append('RequestRelayed', usageReceipt({ channelId: 1, model: 'm1', useTimeMs: 100 }));
    await append('RequestRelayed', usageReceipt({ channelId: 1, model: 'm1', useTimeMs: 120 }));
    // Channel 2 failed, then channel 1 answered a stream (first token after 700 ms).
    await append(
      'RequestRelayed',
      usageReceipt({
        channelId: 1,
        channelChain: [2, 1],
        model: 'm1',
        stream: true,
        useTimeMs: 5000,
        firstTokenMs: 700,
      }),
    );
    await append('RequestFailed', failed([2, 3]));
    // The next 5 minutes: a new row.
    await append(
      'RequestRelayed',
      usageReceipt({ channelId: 1, model: 'm1', useTimeMs: 100 }),
      '2026-01-15T08:10:00.000Z',
    );
    const last = await append('RequestRelayed', usageReceipt({ channelId: 3, model: 'm2' }));
    expect(await host.waitFor(last.position, 2000)).toBe(true);

    const l100 = String(bucketOf(100));
    const l120 = String(bucketOf(120));
    const counts = l100 === l120 ? { [l100]: 2 } : { [l100]: 1, [l120]: 1 };
    expect(await rows()).toEqual([
      {
        channel_id: 1,
        model: 'm1',
        created_at: AT_0805,
        calls: 3,
        failed: 0,
        answered: 3,
        l: counts,
        f: { [String(bucketOf(700))]: 1 },
      },
      { channel_id: 2, model: 'm1', created_at: AT_0805, calls: 2, failed: 2, answered: 0 },
      { channel_id: 3, model: 'm1', created_at: AT_0805, calls: 1, failed: 1, answered: 0 },
      {
        channel_id: 3,
        model: 'm2',
        created_at: AT_0805,
        calls: 1,
        failed: 0,
        answered: 1,
        l: { [String(bucketOf(10))]: 1 },
      },
      {
        channel_id: 1,
        model: 'm1',
        created_at: AT_0810,
        calls: 1,
        failed: 0,
        answered: 1,
        l: { [l100]: 1 },
      },
    ]);
  });

  it('adds no row for a failure that reached no channel', async () => {
    await append('RequestFailed', failed([]));
    const last = await append('RequestFailed', failed([0]));
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    expect(await rows()).toEqual([]);
  });
});
