import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '@tollgate/event-store';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { eventBytes } from '@tollgate/event-store';
import { MAX_APPEND_BYTES } from '../infrastructure/append-chunks';
import { PendingWrites } from '../infrastructure/pending-writes';
import { newRequestId } from '../observability/request-id';
import { UsageAppender, usageEventId } from './usage-appender';

const meta = { actor: SYSTEM_ACTOR, correlationId: 'relay' };
const receipt = (requestId: string = randomUUID()) => usageReceipt({ requestId, quota: 3 });

describe('UsageAppender', () => {
  let store: SqliteEventStore;
  beforeEach(() => {
    store = SqliteEventStore.open(':memory:');
  });
  afterEach(() => store.close());

  it('group-commits a burst into one append on the hour stream of this process', async () => {
    const appender = new UsageAppender(store);
    const at = new Date('2026-03-04T05:06:07Z');
    const before = store.stats.batches;
    const positions = await Promise.all(
      Array.from({ length: 200 }, () => appender.append(receipt(), meta, at)),
    );
    expect(positions).toHaveLength(200);
    expect(store.stats.batches - before).toBe(1);
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

  it("a receipt of a gateway-made request id is stored under an id that starts with the request's time", async () => {
    const appender = new UsageAppender(store);
    const requestId = newRequestId();
    await appender.append(receipt(requestId), meta);
    await appender.append(receipt(requestId), meta);
    const stored = (await store.readAll()).filter((e) => e.id === usageEventId(requestId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id.replace('-', '').slice(0, 12)).toBe(requestId.slice(0, 12));
  });

  it('a retried receipt alone in its batch is one append attempt, answered as durable', async () => {
    const appender = new UsageAppender(store);
    const first = await appender.append(receipt('req-2'), meta);
    const appends = jest.spyOn(store, 'append');
    const again = await appender.append(receipt('req-2'), meta);
    expect(appends).toHaveBeenCalledTimes(1);
    expect(again.commit >= first.commit).toBe(true);
    expect((await store.readAll()).filter((e) => e.id === usageEventId('req-2'))).toHaveLength(1);
  });

  it('paced: the first receipt after a quiet spell commits at once, those within the interval share the next commit', async () => {
    // The pacing clock is faked (setTimeout and performance.now); setImmediate stays real so the
    // store's own turns run: what is asserted is the schedule, never how fast this machine is.
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const appender = new UsageAppender(store, { usageBatchMs: 200 });
      const before = store.stats.batches;
      await appender.append(receipt(), meta); // not held back: no timer had to fire
      expect(store.stats.batches - before).toBe(1);
      const second = appender.append(receipt(), meta);
      jest.advanceTimersByTime(50);
      const third = appender.append(receipt(), meta);
      jest.advanceTimersByTime(149);
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.stats.batches - before).toBe(1); // both wait for the interval
      jest.advanceTimersByTime(1);
      await Promise.all([second, third]);
      expect(store.stats.batches - before).toBe(2);
      expect(await store.readAll()).toHaveLength(3);
    } finally {
      jest.useRealTimers();
    }
  });

  it('paced: a full batch commits at the next turn without waiting out the interval', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    try {
      const appender = new UsageAppender(store, { usageBatchMs: 10_000 });
      const before = store.stats.batches;
      await appender.append(receipt(), meta); // opens the 10 s pacing window
      const eleven = Array.from({ length: 11 }, () => appender.append(receipt(), meta));
      await new Promise((resolve) => setImmediate(resolve));
      expect(store.stats.batches - before).toBe(1); // eleven wait for the interval
      const twelfth = appender.append(receipt(), meta);
      // The clock is never advanced: only the full batch can commit them.
      await Promise.all([...eleven, twelfth]);
      expect(store.stats.batches - before).toBe(2);
      expect(await store.readAll()).toHaveLength(13);
      expect(jest.getTimerCount()).toBe(0); // the interval's timer went with it
    } finally {
      jest.useRealTimers();
    }
  });

  it('a shutdown drains the receipts still waiting for their paced batch', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    const pending = new PendingWrites();
    const appender = new UsageAppender(store, { usageBatchMs: 10_000 }, pending);
    await appender.append(receipt(), meta); // opens the 10 s pacing window
    const waiting = [appender.append(receipt(), meta), appender.append(receipt(), meta)];
    expect(await store.readAll()).toHaveLength(1);
    // The pacing timer never fires in this test (fake clock, never advanced): only the drain can
    // commit the two waiting receipts.
    await pending.drain();
    await Promise.all(waiting);
    expect(await store.readAll()).toHaveLength(3);
    jest.useRealTimers();
  });

  it('a burst past the byte cap goes as several appends, none over it, every receipt durable', async () => {
    // As EventStoreDB does: an append over 1 MiB of data and metadata is refused whole.
    const serverLimit = 1024 * 1024;
    const sent: number[] = [];
    const append = store.append.bind(store);
    jest.spyOn(store, 'append').mockImplementation((stream, events, expected) => {
      const bytes = events.reduce((sum, e) => sum + eventBytes(e), 0);
      sent.push(bytes);
      if (bytes > serverLimit) return Promise.reject(new Error('Maximum append size exceeded'));
      return append(stream, events, expected);
    });
    const appender = new UsageAppender(store);
    const bigName = 'n'.repeat(MAX_APPEND_BYTES / 10);
    const count = 30; // three times the cap, more than the server's limit
    const positions = await Promise.all(
      Array.from({ length: count }, () =>
        appender.append(usageReceipt({ tokenName: bigName }), meta),
      ),
    );
    expect(positions).toHaveLength(count);
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...sent)).toBeLessThanOrEqual(MAX_APPEND_BYTES);
    expect(await store.readAll()).toHaveLength(count);
  });

  describe('time to durability', () => {
    const clock = () => performance.timeOrigin + performance.now();
    const observed = (appender: UsageAppender): number[] => {
      const seconds: number[] = [];
      appender.observe({ receiptDurable: (s) => seconds.push(s) });
      return seconds;
    };

    it('counts up to the commit the store reports, not to when the appender heard of it', async () => {
      const append = store.append.bind(store);
      const queued = clock();
      // The store says its commit returned 250 ms after the receipt was queued.
      jest.spyOn(store, 'append').mockImplementation(async (...args) => ({
        ...(await append(...args)),
        committedAt: queued + 250,
      }));
      const appender = new UsageAppender(store);
      const seconds = observed(appender);
      await appender.append(receipt(), meta);
      expect(seconds).toHaveLength(1);
      expect(seconds[0]).toBeLessThanOrEqual(0.25);
      expect(seconds[0]).toBeGreaterThan(0.2);
    });

    it('counts up to its own clock when the store reports no commit time, once per receipt', async () => {
      const append = store.append.bind(store);
      jest.spyOn(store, 'append').mockImplementation(async (...args) => {
        const { committedAt: _dropped, ...result } = await append(...args);
        return result;
      });
      const appender = new UsageAppender(store);
      const seconds = observed(appender);
      const before = clock();
      await Promise.all([appender.append(receipt(), meta), appender.append(receipt(), meta)]);
      const took = (clock() - before) / 1000;
      expect(seconds).toHaveLength(2);
      for (const s of seconds) {
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThanOrEqual(took);
      }
    });

    it('counts neither a failed append nor a retry answered as already durable', async () => {
      const appender = new UsageAppender(store);
      const seconds = observed(appender);
      await appender.append(receipt('req-once'), meta);
      await appender.append(receipt('req-once'), meta); // the duplicate: durable before
      jest.spyOn(store, 'append').mockRejectedValueOnce(new Error('disk full'));
      await expect(appender.append(receipt(), meta)).rejects.toThrow('disk full');
      expect(seconds).toHaveLength(1);
    });
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
