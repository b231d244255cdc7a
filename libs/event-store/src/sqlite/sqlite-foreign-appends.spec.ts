import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { event } from '../testing/event-store.contract';
import { SubscriptionRecorder } from '../testing/subscription-recorder';
import { SqliteEventStore } from './sqlite-event-store';

/**
 * Several processes on one DATA_DIR: two stores on one file, each with its own connection and writer
 * thread (what two processes have), see each other's appends through their live subscriptions, in
 * `$all` order, without gaps or repeats.
 */
describe('SqliteEventStore: appends made by another process', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-foreign-'));
  let file: string;
  let a: SqliteEventStore;
  let b: SqliteEventStore;

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
    a = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 10 });
    b = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 10 });
  });
  afterEach(async () => {
    await a.close();
    await b.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("delivers the other store's commits to a live subscription", async () => {
    const seen = new SubscriptionRecorder();
    const subscription = a.subscribeToAll({ fromPosition: 'end' }, seen.handlers);
    try {
      await seen.waitFor(() => seen.caughtUpCalls === 1, 'caught up');
      await b.append('option-1', [event('OptionChanged'), event('OptionChanged')], 'no_stream');
      // Without the watch they would never arrive: a never-ending wait is the failure, its bound
      // is generous so a loaded machine cannot trip it.
      await seen.waitFor(() => seen.events.length === 2, 'the two foreign events', 2000);
      expect(seen.events.map((e) => [e.streamId, e.revision])).toEqual([
        ['option-1', 0],
        ['option-1', 1],
      ]);
    } finally {
      await subscription.stop();
    }
  });

  it('looks at once when told another process appended, with no watch at all', async () => {
    const told = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 0 });
    const seen = new SubscriptionRecorder();
    const subscription = told.subscribeToAll({ fromPosition: 'end' }, seen.handlers);
    try {
      await seen.waitFor(() => seen.caughtUpCalls === 1, 'caught up');
      await b.append('option-2', [event('OptionChanged')], 'no_stream');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(seen.events).toHaveLength(0);
      told.lookForForeignAppends();
      await seen.waitFor(() => seen.events.length === 1, 'the foreign event', 2000);
      expect(seen.events[0]!.streamId).toBe('option-2');
    } finally {
      await subscription.stop();
      await told.close();
    }
  });

  it("looks when the other writer's commit signal changes, long before its watch's tick", async () => {
    const sender = SqliteEventStore.open(file, { synchronous: 'normal', signalCommits: true });
    // The tick is a minute away: only the signal can bring these events within the bound.
    const watcher = (watchCommitSignal: boolean) =>
      SqliteEventStore.open(file, { watchForeignAppendsMs: 60_000, watchCommitSignal });
    const [watching, deaf] = [watcher(true), watcher(false)];
    const [seen, unseen] = [new SubscriptionRecorder(), new SubscriptionRecorder()];
    const subscriptions = [
      watching.subscribeToAll({ fromPosition: 'end' }, seen.handlers),
      deaf.subscribeToAll({ fromPosition: 'end' }, unseen.handlers),
    ];
    try {
      await seen.waitFor(() => seen.caughtUpCalls === 1, 'caught up');
      await unseen.waitFor(() => unseen.caughtUpCalls === 1, 'caught up');
      for (const n of [1, 2, 3]) {
        await sender.append(`option-s${n}`, [event('OptionChanged')], 'no_stream');
        await seen.waitFor(() => seen.events.length === n, `signalled commit ${n}`, 2000);
      }
      expect(seen.events.map((e) => e.streamId)).toEqual(['option-s1', 'option-s2', 'option-s3']);
      // The same commits, without the signal: nothing until the tick.
      expect(unseen.events).toHaveLength(0);
      // A commit by a writer that does not signal wakes nobody.
      await b.append('option-quiet', [event('OptionChanged')], 'no_stream');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(seen.events).toHaveLength(3);
    } finally {
      for (const subscription of subscriptions) await subscription.stop();
      for (const store of [sender, watching, deaf]) await store.close();
    }
  });

  it('keeps $all order when own and foreign commits interleave, with nothing twice', async () => {
    const seenA = new SubscriptionRecorder();
    const seenB = new SubscriptionRecorder((e) => e.type !== 'Ignored');
    const subA = a.subscribeToAll({ fromPosition: 'start' }, seenA.handlers);
    const subB = b.subscribeToAll(
      { fromPosition: 'start', filter: { streamPrefixes: ['s-'] } },
      seenB.handlers,
    );
    try {
      const appends: Array<Promise<unknown>> = [];
      for (let i = 0; i < 60; i++) {
        const store = i % 3 === 0 ? b : a;
        appends.push(store.append(`s-${i}`, [event('Appended', { i })], 'no_stream'));
        if (i % 10 === 0) appends.push(a.append(`other-${i}`, [event('Appended')], 'no_stream'));
      }
      await Promise.all(appends);
      const total = 60 + 6;
      await seenA.waitFor(() => seenA.events.length === total, 'every event in A', 3000);
      await seenB.waitFor(() => seenB.events.length === 60, "B's filtered events", 3000);
      for (const seen of [seenA, seenB]) {
        const positions = seen.events.map((e) => e.position.commit);
        expect(positions).toEqual([...positions].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)));
        expect(new Set(positions).size).toBe(positions.length);
      }
      const all = await a.readAll();
      expect(seenA.ids).toEqual(all.map((e) => e.id));
      expect(seenB.ids).toEqual(all.filter((e) => e.streamId.startsWith('s-')).map((e) => e.id));
    } finally {
      await subA.stop();
      await subB.stop();
    }
  });

  it("gives a subscription opened during a commit the other store's events it had not heard of", async () => {
    // No watch and no subscription: this store's idea of the head stays behind B's appends.
    const behind = SqliteEventStore.open(file, { synchronous: 'normal', watchForeignAppendsMs: 0 });
    const seen = new SubscriptionRecorder();
    let subscription: { stop(): Promise<void> } | undefined;
    try {
      await behind.append('own-0', [event('Appended')], 'no_stream');
      for (const n of [1, 2, 3]) await b.append(`foreign-${n}`, [event('Appended')], 'no_stream');
      const own = behind.append('own-1', [event('Appended')], 'no_stream');
      await Promise.resolve(); // the batch is now with the writer thread, not yet reported
      subscription = behind.subscribeToAll({ fromPosition: 'start' }, seen.handlers);
      await own;
      await seen.waitFor(() => seen.events.length === 5, 'every event', 3000);
      expect(seen.events.map((e) => e.streamId)).toEqual([
        'own-0',
        'foreign-1',
        'foreign-2',
        'foreign-3',
        'own-1',
      ]);
      expect(seen.ids).toEqual((await behind.readAll()).map((e) => e.id));
    } finally {
      await subscription?.stop();
      await behind.close();
    }
  });

  it('refuses an append on a revision the other store has moved on (one log, one truth)', async () => {
    await a.append('billing-1', [event('QuotaGranted')], 'no_stream');
    await b.append('billing-1', [event('QuotaGranted')], 0);
    await expect(a.append('billing-1', [event('QuotaGranted')], 0)).rejects.toMatchObject({
      name: 'WrongExpectedRevisionError',
      actual: 1,
    });
  });
});
