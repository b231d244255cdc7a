import { event } from '../testing/event-store.contract';
import { cancelledError, notLeaderError } from '../testing/esdb-errors';
import { FakeEsdbClient } from '../testing/fake-esdb-client';
import { SubscriptionRecorder, sleep } from '../testing/subscription-recorder';
import { EsdbEventStore } from './esdb-event-store';
import { isTransient } from './esdb-retry';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 4 };

describe('EsdbEventStore reads and subscriptions across a leader change', () => {
  let fake: FakeEsdbClient;
  let store: EsdbEventStore;
  beforeEach(() => {
    fake = new FakeEsdbClient({ sendsCaughtUp: true });
    store = new EsdbEventStore(fake.asClient(), { retry: fastRetry });
  });
  afterEach(() => store.close());

  it('counts NotLeader and Cancelled as transient', () => {
    expect(isTransient(notLeaderError())).toBe(true);
    expect(isTransient(cancelledError())).toBe(true);
    expect(isTransient(new Error('access denied'))).toBe(false);
  });

  it('retries stream and $all reads', async () => {
    await store.append('a', [event('A')], 'no_stream');
    fake.failNext('readStream', notLeaderError());
    fake.failNext('readAll', cancelledError());
    expect((await store.readStream('a')).map((e) => e.type)).toEqual(['A']);
    expect((await store.readAll()).map((e) => e.type)).toEqual(['A']);
  });

  it('resubscribes the shared stream from its last position, failing no subscriber', async () => {
    const recorders = [new SubscriptionRecorder(), new SubscriptionRecorder()];
    const subs = recorders.map((r) => store.subscribeToAll({ fromPosition: 'start' }, r.handlers));
    try {
      for (const r of recorders) await r.waitFor(() => r.caughtUpCalls > 0, 'caught up');
      await store.append('a', [event('Before')], 'any');
      for (const r of recorders) await r.waitFor(() => r.events.length === 1, 'first');
      fake.breakSubscriptions(notLeaderError());
      await store.append('a', [event('During')], 'any');
      fake.failNext('subscribeToAll', cancelledError());
      await store.append('a', [event('After')], 'any');
      for (const r of recorders) await r.waitFor(() => r.events.length === 3, '3 events');
      await sleep(20);
      for (const r of recorders) {
        expect(r.events.map((e) => e.type)).toEqual(['Before', 'During', 'After']);
        expect(r.errors).toEqual([]);
      }
      expect(fake.openSubscriptions).toBe(1);
    } finally {
      await Promise.all(subs.map((s) => s.stop()));
    }
  });
});
