import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@tollgate/event-store';
import { SYSTEM_ACTOR, type RequestRelayed } from '@tollgate/domain';
import { UsageAppender, usageEventId } from './usage-appender';

const meta = { actor: SYSTEM_ACTOR, correlationId: 'relay' };
const receipt = (requestId: string = randomUUID()): RequestRelayed['data'] => ({
  requestId,
  userId: 1,
  tokenId: 2,
  tokenName: 't',
  group: 'default',
  model: 'm',
  upstreamModel: 'm',
  channelId: 1,
  channelChain: [1],
  endpoint: '/v1/chat/completions',
  promptTokens: 1,
  completionTokens: 1,
  cachedTokens: 0,
  quota: 3,
  reserved: 3,
  modelRatio: 1,
  completionRatio: 1,
  groupRatio: 1,
  cacheRatio: 1,
  modelPrice: -1,
  useTimeMs: 5,
  firstTokenMs: null,
  stream: false,
  estimated: false,
  ip: '',
});

describe('UsageAppender', () => {
  let store: SqliteEventStore;
  beforeEach(() => {
    store = SqliteEventStore.open(':memory:');
  });
  afterEach(() => store.close());

  it('group-commits a burst into one append on the hour stream of this process', async () => {
    const appender = new UsageAppender(store);
    const at = new Date('2026-03-04T05:06:07Z');
    const before = store.stats.transactions;
    const positions = await Promise.all(
      Array.from({ length: 200 }, () => appender.append(receipt(), meta, at)),
    );
    expect(positions).toHaveLength(200);
    expect(store.stats.transactions - before).toBe(1);
    const events = await store.readStream(`usage-${appender.processId}-2026030405`);
    expect(events).toHaveLength(200);
    expect(events[0]!.metadata).toMatchObject({ correlationId: 'relay', actor: SYSTEM_ACTOR });
  });

  it('a retried receipt (same request id) is durable once, in the same or a later batch', async () => {
    const appender = new UsageAppender(store);
    const first = receipt('req-1');
    await Promise.all([
      appender.append(first, meta),
      appender.append(first, meta),
      appender.append(receipt(), meta),
    ]);
    await Promise.all([appender.append(first, meta), appender.append(receipt(), meta)]);
    const all = await store.readAll();
    expect(all.filter((e) => e.id === usageEventId('req-1'))).toHaveLength(1);
    expect(all).toHaveLength(3);
  });

  it('splits streams by hour', async () => {
    const appender = new UsageAppender(store);
    await Promise.all([
      appender.append(receipt(), meta, new Date('2026-03-04T05:59:59Z')),
      appender.append(receipt(), meta, new Date('2026-03-04T06:00:00Z')),
    ]);
    expect(await store.streamRevision(`usage-${appender.processId}-2026030405`)).toBe(0);
    expect(await store.streamRevision(`usage-${appender.processId}-2026030406`)).toBe(0);
  });
});
