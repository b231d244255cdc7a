import {
  DeadlineExceededError,
  MaxAppendSizeExceededError,
  UnknownError,
  WrongExpectedVersionError,
} from '@eventstore/db-client';
import { WrongExpectedRevisionError, type EventData } from '../event-store.port';
import { DuplicateEventIdError } from '../shared/duplicate-event-id-error';
import { event } from '../testing/event-store.contract';
import { cancelledError, notLeaderError } from '../testing/esdb-errors';
import { FakeEsdbClient, type FakeEsdbOptions } from '../testing/fake-esdb-client';
import { CLOCK_SKEW_MARGIN_MS } from './esdb-append';
import { eventBytes } from '../shared/chunk-by-size';
import { EsdbEventStore, type EsdbEventStoreOptions } from './esdb-event-store';
import { toEsdbEvent } from './esdb-mapping';

const fastRetry = { initialDelayMs: 1, maxDelayMs: 4, maxAttempts: 4 };

function setup(
  fakeOptions: Partial<FakeEsdbOptions> = {},
  storeOptions: EsdbEventStoreOptions = {},
): { fake: FakeEsdbClient; store: EsdbEventStore } {
  const fake = new FakeEsdbClient({ sendsCaughtUp: true, ...fakeOptions });
  const store = new EsdbEventStore(fake.asClient(), {
    retry: fastRetry,
    appendRetryBackoffMs: 1,
    ...storeOptions,
  });
  return { fake, store };
}

/** An event whose data + metadata come to about `bytes` bytes. */
function sized(type: string, bytes: number): EventData {
  return { ...event(type, { pad: 'x'.repeat(bytes) }), metadata: {} };
}

const callsTo = (fake: FakeEsdbClient, streamId: string): string[] =>
  fake.appendLog.filter((c) => c.streamId === streamId).map((c) => c.expected);

describe('EsdbEventStore appends against the server limit (MaxAppendSize)', () => {
  it('the fake refuses an append over the limit as the client reports it', async () => {
    const { fake, store } = setup({ maxAppendSize: 1000 });
    const refused = fake.appendToStream('raw', [toEsdbEvent(sized('Big', 1200))]);
    await expect(refused).rejects.toBeInstanceOf(MaxAppendSizeExceededError);
    await expect(refused).rejects.toMatchObject({ maxAppendSize: 1000 });
    await store.close();
  });

  it('splits a large append into chained calls under the limit, in order', async () => {
    const { fake, store } = setup(
      { maxAppendSize: 1000 },
      { appendChunkBytes: 800, maxAppendBytes: 1000 },
    );
    const events = Array.from({ length: 10 }, (_, i) => sized(`E${i}`, 300));
    const result = await store.append('big-1', events, 'no_stream');
    expect(result.nextExpectedRevision).toBe(9);
    const read = await store.readStream('big-1');
    expect(read.map((e) => e.id)).toEqual(events.map((e) => e.id));
    expect(result.position).toEqual(read[9]!.position);
    // Two events (~2 × 320 bytes) per call; each call expects what the previous one wrote.
    expect(eventBytes(events[0]!) * 3).toBeGreaterThan(800);
    expect(callsTo(fake, 'big-1')).toEqual(['no_stream', '1', '3', '5', '7']);
    await store.close();
  });

  it('refuses a single event over the limit before writing anything', async () => {
    const { fake, store } = setup(
      { maxAppendSize: 1000 },
      { appendChunkBytes: 800, maxAppendBytes: 1000 },
    );
    const append = store.append('big-2', [sized('Small', 10), sized('Huge', 1100)], 'no_stream');
    await expect(append).rejects.toThrow(/accepts at most 1000 per append\. Nothing was written/);
    expect(callsTo(fake, 'big-2')).toEqual([]);
    expect(await store.streamRevision('big-2')).toBeNull();
    await store.close();
  });
});

describe('EsdbEventStore split appends stopped part way', () => {
  const limits = { appendChunkBytes: 800, maxAppendBytes: 1000 };
  const stopped = new UnknownError(undefined, 'connection closed by peer');

  it('leave a prefix; the same append repeated at its revision writes the rest once', async () => {
    const { fake, store } = setup({ maxAppendSize: 1000 }, limits);
    const events = Array.from({ length: 6 }, (_, i) => sized(`E${i}`, 300));
    fake.failAfter('appendToStream', 1, stopped);
    await expect(store.append('split', events, 'no_stream')).rejects.toBe(stopped);
    expect(await store.streamRevision('split')).toBe(1);
    expect((await store.append('split', events, 'no_stream')).nextExpectedRevision).toBe(5);
    expect((await store.readStream('split')).map((e) => e.id)).toEqual(events.map((e) => e.id));
    await store.close();
  });

  it("with a key and 'any': the repeat writes only what is missing, a further one is refused", async () => {
    const { fake, store } = setup({ maxAppendSize: 1000 }, limits);
    const events = Array.from({ length: 6 }, (_, i) => sized(`E${i}`, 300));
    const key = { idempotencyKey: 'import-7' };
    await store.append('split', [event('Before')], 'any');
    // Calls: the key's claim, the first chunk, then the second chunk fails.
    fake.failAfter('appendToStream', 2, stopped);
    await expect(store.append('split', events, 'any', key)).rejects.toBe(stopped);
    expect(await store.streamRevision('split')).toBe(2);
    await store.append('split', [event('Between')], 'any');
    await store.append('split', events, 'any', key);
    const ids = (await store.readStream('split')).map((e) => e.id);
    expect(ids.filter((id) => events.some((e) => e.id === id))).toHaveLength(6);
    expect(ids).toHaveLength(8);
    const again = store.append('split', events, 'any', key);
    await expect(again).rejects.toBeInstanceOf(DuplicateEventIdError);
    await store.close();
  });

  it('with a key: refused for its revision part way, it keeps the key for its repeat', async () => {
    const { fake, store } = setup({ maxAppendSize: 1000 }, limits);
    const events = Array.from({ length: 4 }, (_, i) => sized(`E${i}`, 300));
    const key = { idempotencyKey: 'import-8' };
    const overtaken = new WrongExpectedVersionError(undefined, {
      streamName: 'split',
      expected: 1n,
      current: 2n,
    });
    fake.failAfter('appendToStream', 2, overtaken);
    const first = store.append('split', events, 'any', key);
    await expect(first).rejects.toBeInstanceOf(WrongExpectedRevisionError);
    expect((await store.append('split', events, 'any', key)).nextExpectedRevision).toBe(3);
    expect((await store.readStream('split')).map((e) => e.id)).toEqual(events.map((e) => e.id));
    await store.close();
  });
});

describe('EsdbEventStore appends across leader changes and lost answers', () => {
  it.each([
    ['NotLeaderError', notLeaderError],
    ['CancelledError', cancelledError],
    ['DeadlineExceededError', () => new DeadlineExceededError()],
  ])('retries once after %s when nothing was written', async (_name, makeError) => {
    const { fake, store } = setup();
    await store.append('acct-1', [event('Opened')], 'no_stream');
    fake.failNext('appendToStream', makeError());
    const result = await store.append('acct-1', [event('Charged')], 0);
    expect(result.nextExpectedRevision).toBe(1);
    expect((await store.readStream('acct-1')).map((e) => e.type)).toEqual(['Opened', 'Charged']);
    expect(callsTo(fake, 'acct-1')).toEqual(['no_stream', '0', '0']);
    await store.close();
  });

  it('answers the written events when the answer was lost, on a busy stream, without resending', async () => {
    const { fake, store } = setup();
    await store.append('busy', [event('First')], 'any');
    const mine = [event('Mine1'), event('Mine2')];
    // Written, then 150 events by other writers land before we look.
    fake.loseNextAppendAnswer(notLeaderError(), () => {
      for (let i = 0; i < 150; i += 1) fake.writeForeign('busy', 'OtherWriter');
    });
    const result = await store.append('busy', mine, 'any');
    const read = await store.readStream('busy');
    expect(read).toHaveLength(153);
    expect(read.filter((e) => e.type.startsWith('Mine')).map((e) => e.revision)).toEqual([1, 2]);
    expect(result).toEqual({ nextExpectedRevision: 2, position: read[2]!.position });
    expect(callsTo(fake, 'busy')).toEqual(['any', 'any']);
    await store.close();
  });

  it('searches back by time, not by count: events older than the attempt end the search', async () => {
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const { fake, store } = setup({ now: () => clock }, { now: () => clock });
    for (let i = 0; i < 5; i += 1) {
      await store.append(
        'old',
        Array.from({ length: 100 }, () => event('Old')),
        'any',
      );
    }
    clock += 10 * CLOCK_SKEW_MARGIN_MS;
    fake.failNext('appendToStream', cancelledError());
    const reads = fake.stats.readStreamCalls;
    await store.append('old', [event('New')], 499);
    // One backwards page reached an event recorded before the attempt: the search stopped there.
    expect(fake.stats.readStreamCalls - reads).toBe(1);
    expect(await store.streamRevision('old')).toBe(500);
    await store.close();
  });

  it('refuses as a duplicate when only some of the events are already there', async () => {
    const { fake, store } = setup();
    const earlier = event('Earlier');
    await store.append('part', [earlier], 'any');
    fake.failNext('appendToStream', notLeaderError());
    const error: unknown = await store
      .append('part', [event('Fresh'), { ...earlier }], 'any')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DuplicateEventIdError);
    expect(await store.streamRevision('part')).toBe(0);
    await store.close();
  });

  it('retries only once', async () => {
    const { fake, store } = setup();
    fake.failNext('appendToStream', notLeaderError(), 2);
    await expect(store.append('twice', [event('A')], 'any')).rejects.toThrow();
    expect(callsTo(fake, 'twice')).toHaveLength(2);
    expect(await store.streamRevision('twice')).toBeNull();
    await store.close();
  });
});

describe('EsdbEventStore keeps appends to one stream in call order', () => {
  it('the reordering fake breaks a pipeline sent without ordering', async () => {
    const fake = new FakeEsdbClient({ sendsCaughtUp: true, reorderAppends: true });
    const outcomes = await Promise.allSettled(
      (['no_stream', 0n, 1n] as const).map((expectedRevision, i) =>
        fake.appendToStream('raw', [toEsdbEvent(event(`E${i}`))], { expectedRevision }),
      ),
    );
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(0);
  });

  it('pipelined appends with numeric expected revisions all succeed', async () => {
    const { fake, store } = setup({ reorderAppends: true });
    const results = await Promise.all([
      store.append('pipe', [event('A')], 'no_stream'),
      store.append('pipe', [event('B')], 0),
      store.append('pipe', [event('C')], 1),
      store.append('other', [event('X')], 'no_stream'),
    ]);
    expect(results.map((r) => r.nextExpectedRevision)).toEqual([0, 1, 2, 0]);
    expect((await store.readStream('pipe')).map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(callsTo(fake, 'pipe')).toEqual(['no_stream', '0', '1']);
    // Another stream does not wait for this one's queue: it reached the server before its second.
    const order = fake.appendLog.map((c) => `${c.streamId}:${c.expected}`);
    expect(order.indexOf('other:no_stream')).toBeLessThan(order.indexOf('pipe:0'));
    await store.close();
  });
});

describe('EsdbEventStore over what older or differently configured servers answer', () => {
  it('throwOnAppendFailure=false: the reported revision is wrong, the error carries the real one', async () => {
    const { fake, store } = setup({ throwOnAppendFailure: false });
    await store.append(
      'acct',
      Array.from({ length: 5 }, () => event('E')),
      'no_stream',
    );
    const raw = await fake.appendToStream('acct', [toEsdbEvent(event('X'))], {
      expectedRevision: 2n,
    });
    // Client 6.2.1: BigInt(hasCurrentStreamRevision()).
    expect(raw).toMatchObject({ success: false, nextExpectedRevision: 1n });
    const error: unknown = await store.append('acct', [event('Y')], 2).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WrongExpectedRevisionError);
    expect(error).toMatchObject({ expected: 2, actual: 4 });
    await store.close();
  });

  it('servers before 22.6: position 2^64-1 in appends and stream reads is looked up in $all', async () => {
    const { fake, store } = setup({ unknownPositions: true });
    await store.append('old-a', [event('A')], 'no_stream');
    const raw = await fake.appendToStream('old-b', [toEsdbEvent(event('R'))]);
    expect(raw.position?.commit).toBe(18446744073709551615n);
    const result = await store.append('old-a', [event('B'), event('C')], 0);
    const all = await store.readAll({ filter: { streamPrefixes: ['old-a'] } });
    expect(all.map((e) => e.type)).toEqual(['A', 'B', 'C']);
    expect(result.position).toEqual(all[2]!.position);
    const read = await store.readStream('old-a');
    expect(read.map((e) => e.position)).toEqual(all.map((e) => e.position));
    await store.close();
  });
});
