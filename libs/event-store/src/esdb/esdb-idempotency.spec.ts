import { jsonEvent } from '@eventstore/db-client';
import { event } from '../testing/event-store.contract';
import { FakeEsdbClient } from '../testing/fake-esdb-client';
import { SubscriptionRecorder } from '../testing/subscription-recorder';
import { EsdbEventStore } from './esdb-event-store';
import { CLAIM_HOLD_MS, markerStreamOf } from './esdb-idempotency';
import { toEsdbEvent } from './esdb-mapping';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 4 };

function storeOn(fake: FakeEsdbClient, now: () => number = Date.now): EsdbEventStore {
  return new EsdbEventStore(fake.asClient(), { retry: fastRetry, appendRetryBackoffMs: 1, now });
}

const causeOf = (error: unknown): string => String((error as { cause?: Error }).cause?.message);

describe('the fake server deduplicates as EventStoreDB does', () => {
  it("with 'any', only ids still in its recent-ids cache; other ids are written again", async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, recentIdsCacheSize: 3 });
    const store = storeOn(fake);
    const receipt = event('Receipt');
    await store.append('u-1', [receipt], 'any');
    await store.append('u-1', [receipt], 'any'); // in the cache: answered, not written
    expect(await store.streamRevision('u-1')).toBe(0);
    await store.append('u-1', [event('A'), event('B'), event('C')], 'any');
    await store.append('u-1', [receipt], 'any'); // pushed out of the cache: written again
    expect((await store.readStream('u-1')).map((e) => e.type)).toEqual([
      'Receipt',
      'A',
      'B',
      'C',
      'Receipt',
    ]);
    await store.close();
  });

  it('at the same expected revision, answers the first write without writing', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, recentIdsCacheSize: 0 });
    const events = [event('A'), event('B')].map(toEsdbEvent);
    const first = await fake.appendToStream('s', events, { expectedRevision: 'no_stream' });
    await fake.appendToStream('s', [toEsdbEvent(event('C'))], { expectedRevision: 1n });
    const again = await fake.appendToStream('s', events, { expectedRevision: 'no_stream' });
    expect(again).toEqual(first);
  });
});

describe('EsdbEventStore appends with an idempotency key', () => {
  it('refuses a repeat from another process racing it, through the marker stream', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, reorderAppends: true });
    const [one, two] = [storeOn(fake), storeOn(fake)];
    const batch = [event('Charged')];
    const outcomes = await Promise.all(
      [one, two].map((s) =>
        s.append('acct-9', batch, 'any', { idempotencyKey: 'charge-9' }).catch((e: unknown) => e),
      ),
    );
    const refused = outcomes.filter((o) => (o as Error).name === 'DuplicateEventIdError');
    expect(refused).toHaveLength(1);
    expect(causeOf(refused[0])).toMatch(/claimed concurrently/);
    expect((await one.readStream('acct-9')).map((e) => e.id)).toEqual([batch[0]!.id]);
    await Promise.all([one.close(), two.close()]);
  });

  it('refuses a repeat long after, past any hold, because its events are in the stream', async () => {
    let clock = Date.now();
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, now: () => clock });
    const store = storeOn(fake, () => clock);
    const batch = [event('Imported')];
    await store.append('imp-1', batch, 'no_stream', { idempotencyKey: 'batch-1' });
    clock += 10 * CLAIM_HOLD_MS;
    await store.append('imp-1', [event('Later')], 0);
    const repeat: unknown = await store
      .append('imp-1', batch, 'any', { idempotencyKey: 'batch-1' })
      .catch((e: unknown) => e);
    expect(repeat).toMatchObject({ name: 'DuplicateEventIdError' });
    expect(causeOf(repeat)).toMatch(/was written/);
    expect((await store.readStream('imp-1')).map((e) => e.type)).toEqual(['Imported', 'Later']);
    await store.close();
  });

  it('frees the key when the append was refused for its expected revision', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true });
    const store = storeOn(fake);
    await store.append('acct-1', [event('Opened')], 'no_stream');
    const batch = [event('Charged')];
    const stale = store.append('acct-1', batch, 'no_stream', { idempotencyKey: 'k1' });
    await expect(stale).rejects.toMatchObject({ name: 'WrongExpectedRevisionError' });
    const reloaded = await store.append('acct-1', batch, 0, { idempotencyKey: 'k1' });
    expect(reloaded.nextExpectedRevision).toBe(1);
    await store.close();
  });

  it('holds a claim without its events for CLAIM_HOLD_MS, then lets the key be used', async () => {
    let clock = Date.now();
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, now: () => clock });
    const store = storeOn(fake, () => clock);
    // An append that claimed the key, then died before writing its events.
    const claim = { streamId: 'acct-2', fromRevision: 0, firstEventId: 'gone' };
    await fake.appendToStream(markerStreamOf('k2'), [
      jsonEvent({ type: 'IdempotencyKeyClaimed', data: claim, metadata: {} }),
    ]);
    const batch = [event('Charged')];
    const early = store.append('acct-2', batch, 'any', { idempotencyKey: 'k2' });
    await expect(early).rejects.toMatchObject({ name: 'DuplicateEventIdError' });
    clock += CLAIM_HOLD_MS + 1;
    expect(
      (await store.append('acct-2', batch, 'any', { idempotencyKey: 'k2' })).nextExpectedRevision,
    ).toBe(0);
    await store.close();
  });

  it('keeps its markers out of readAll and subscriptions', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true });
    const store = storeOn(fake);
    const recorder = new SubscriptionRecorder();
    const sub = store.subscribeToAll({ fromPosition: 'start' }, recorder.handlers);
    try {
      await store.append('acct-3', [event('Charged')], 'any', { idempotencyKey: 'k3' });
      await recorder.waitFor(() => recorder.events.length === 1, '1 event');
      expect(recorder.events.map((e) => e.streamId)).toEqual(['acct-3']);
      expect((await store.readAll()).map((e) => e.streamId)).toEqual(['acct-3']);
      expect(await store.headPosition()).toEqual(recorder.events[0]!.position);
      // The marker is there, under a hash of the key.
      const raw = fake.readStream(markerStreamOf('k3'));
      const markers: unknown[] = [];
      for await (const r of raw) markers.push(r);
      expect(markers).toHaveLength(1);
    } finally {
      await sub.stop();
      await store.close();
    }
  });
});
