import type { RecordedEvent } from '@tollgate/event-store';
import { SqliteEventStore } from '@tollgate/event-store';
import { CacheFeed } from './cache-feed';
import type { HotCache } from './hot-cache';

class CountingCache implements HotCache {
  readonly name = 'counting';
  readonly seen: string[] = [];
  constructor(readonly eventTypes: readonly string[]) {}
  apply(events: readonly RecordedEvent[]): void {
    for (const e of events) this.seen.push(`${e.type}:${(e.data as { n: number }).n}`);
  }
}

const event = (type: string, n: number) => ({ id: crypto.randomUUID(), type, data: { n } });

describe('CacheFeed', () => {
  it('replays the log into each cache (its types only), then follows live appends', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append('a-1', [event('Added', 1), event('Ignored', 2)], 'no_stream');
    const feed = new CacheFeed(store);
    const cache = new CountingCache(['Added']);
    feed.register(cache);
    await feed.start();
    expect(cache.seen).toEqual(['Added:1']);

    const { position } = await store.append('a-1', [event('Added', 3)], 0 + 1);
    expect(await feed.waitFor(position, 2000)).toBe(true);
    expect(cache.seen).toEqual(['Added:1', 'Added:3']);
    expect(feed.hasReached(position)).toBe(true);
    await feed.onApplicationShutdown();
    await store.close();
  });

  it('keeps feeding the other caches when one throws', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append('a-1', [event('Added', 1)], 'no_stream');
    const feed = new CacheFeed(store);
    feed.register({
      name: 'broken',
      eventTypes: ['Added'],
      apply: () => {
        throw new Error('boom');
      },
    });
    const healthy = new CountingCache(['Added']);
    feed.register(healthy);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await feed.start();
    expect(healthy.seen).toEqual(['Added:1']);
    await feed.onApplicationShutdown();
    await store.close();
  });

  it('refuses a cache registered after start (it would miss the replay)', async () => {
    const store = SqliteEventStore.open(':memory:');
    const feed = new CacheFeed(store);
    await feed.start();
    expect(() => feed.register(new CountingCache(['Added']))).toThrow(/after start/);
    await feed.onApplicationShutdown();
    await store.close();
  });
});

describe('CacheFeed after a lost subscription', () => {
  it('resubscribes from where it was and keeps the caches live', async () => {
    const store = SqliteEventStore.open(':memory:');
    await store.append('a-1', [event('Added', 1)], 'no_stream');
    // The first subscription fails once caught up (an EventStoreDB connection lost, say).
    let subscriptions = 0;
    let breakFirst: (() => Promise<void>) | undefined;
    const flaky = new Proxy(store, {
      get(target, key, receiver) {
        if (key !== 'subscribeToAll') return Reflect.get(target, key, receiver) as unknown;
        const subscribe: typeof store.subscribeToAll = (options, handlers) => {
          const subscription = target.subscribeToAll(options, handlers);
          if (subscriptions++ === 0)
            breakFirst = async () => {
              await subscription.stop();
              handlers.onError?.(new Error('connection lost'));
            };
          return subscription;
        };
        return subscribe;
      },
    });
    const feed = new CacheFeed(flaky);
    const cache = new CountingCache(['Added']);
    feed.register(cache);
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await feed.start();
    await breakFirst!();

    const { position } = await store.append('a-1', [event('Added', 2)], 0);
    expect(await feed.waitFor(position, 3000)).toBe(true);
    expect(cache.seen).toEqual(['Added:1', 'Added:2']);
    expect(subscriptions).toBe(2);
    await feed.onApplicationShutdown();
    await store.close();
  });
});
