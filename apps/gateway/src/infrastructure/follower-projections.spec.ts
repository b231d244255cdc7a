import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type Position, type RecordedEvent } from '@tollgate/event-store';
import { SqliteReadStore, type Projection } from '@tollgate/read-store';
import { FollowerProjections, type FollowerOptions } from './follower-projections';
import type { HotCache } from './hot-caches/hot-cache';
import { ProjectorHeadWriter, readProjectorHead } from './projector-head';

const projection = (name: string, eventTypes: string[]): Projection => ({
  name,
  version: 1,
  collections: [{ name: `${name}_docs` }],
  eventTypes,
  apply: () => Promise.resolve(),
});
const PROJECTIONS = [
  projection('first', ['A']),
  // B stands for the receipts: taken in `batched`, so the projector paces them.
  {
    ...projection('second', ['B', 'A']),
    batched: { eventTypes: ['B'], apply: () => undefined },
  },
];

/** Resolves once `condition` holds (checked every 5 ms); fails the test after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('FollowerProjections', () => {
  let dir: string;
  let events: SqliteEventStore;
  let followerStore: SqliteReadStore;
  let projectorStore: SqliteReadStore;
  let head: ProjectorHeadWriter;
  let feed: HotCache | undefined;
  let follower: FollowerProjections;
  const warnings: string[] = [];

  const append = async (type: string): Promise<RecordedEvent> => {
    await events.append(`s-${randomUUID()}`, [{ id: randomUUID(), type, data: {} }], 'any');
    const all = await events.readAll();
    return all[all.length - 1]!;
  };
  const createFollower = (startTimeoutMs?: number, heads?: FollowerOptions['heads']) =>
    new FollowerProjections(
      events,
      followerStore,
      { register: (cache) => (feed = cache) },
      PROJECTIONS,
      {
        log: () => undefined,
        warn: (line) => warnings.push(line),
        onError: (name, error) => {
          throw error;
        },
        startTimeoutMs,
        heads,
      },
    );

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-follower-'));
    events = SqliteEventStore.open(join(dir, 'events.sqlite'));
    // Two handles on one file: the projector's process and this follower's.
    projectorStore = new SqliteReadStore(join(dir, 'read.sqlite'));
    followerStore = new SqliteReadStore(join(dir, 'read.sqlite'));
    head = new ProjectorHeadWriter(projectorStore, (error) => {
      throw error;
    });
    await head.clear();
    warnings.length = 0;
    follower = createFollower();
  });
  afterEach(async () => {
    await follower.stop();
    await head.stop();
    await events.close();
    await followerStore.close();
    await projectorStore.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('starts at once on an empty log', async () => {
    await follower.start();
    expect(follower.position()).toBeNull();
  });

  it('starts once the projector head has reached the log head', async () => {
    const last = await append('A');
    let started = false;
    const starting = follower.start().then(() => (started = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(started).toBe(false);
    head.record(last.position);
    await starting;
    expect(follower.hasReached(last.position)).toBe(true);
  });

  it('gives up waiting at start after its bound, with a warning', async () => {
    await append('A');
    follower = createFollower(50);
    await follower.start();
    expect(warnings.join()).toMatch(/No projecting process reached the log head/);
  });

  it('takes a head told by the projector at once, with no head written to the store', async () => {
    const told = new Set<(position: Position) => void>();
    const nudges: string[] = [];
    let feedCalls = 0;
    follower = createFollower(undefined, {
      onHead: (listener) => (told.add(listener), () => told.delete(listener)),
      nudge: () => nudges.push(`after ${feedCalls}`),
    });
    await follower.start();
    const receipt = await append('B');
    feed!.apply([receipt]);
    feedCalls += 1;
    const event = await append('A');
    feed!.apply([event]);
    // Receipts alone are left to the writer's commit signal; a command's event is told at once.
    expect(nudges).toEqual(['after 1']);
    const waiting = follower.waitFor(event.position, 10_000);
    for (const listener of told) listener(event.position);
    expect(await waiting).toBe(true);
    expect(await readProjectorHead(followerStore)).toBeNull();
  });

  it('resolves waitFor when another store handle writes the head, and false on timeout', async () => {
    await follower.start();
    const first = await append('A');
    const second = await append('B');
    expect(await follower.waitFor(first.position, 50)).toBe(false);
    const advanced: string[] = [];
    follower.onAdvance(() => advanced.push(String(follower.position()?.commit)));
    const waiting = follower.waitFor(second.position, 10_000);
    head.record(first.position);
    await until(() => follower.hasReached(first.position));
    expect(follower.hasReached(second.position)).toBe(false);
    head.record(second.position);
    expect(await waiting).toBe(true);
    expect(advanced).toEqual([String(first.position.commit), String(second.position.commit)]);
  });

  it('calls onApplied per projection, in log order, once the head has passed the events', async () => {
    const before = await append('A');
    head.record(before.position);
    // Both handles live in this one thread: the follower's declare must not meet the head's open
    // write transaction (across processes SQLite's busy wait covers that).
    while (!(await readProjectorHead(projectorStore)))
      await new Promise((resolve) => setTimeout(resolve, 5));
    await follower.start();
    const calls: Array<[string, string[]]> = [];
    follower.onApplied((name, applied) => calls.push([name, applied.map((e) => e.type)]));

    // The feed replays the whole log: what the read models held at start is not pushed again.
    const a1 = await append('A');
    const b1 = await append('B');
    const a2 = await append('A');
    feed!.apply([before, a1, b1, a2]);
    expect(calls).toEqual([]);

    head.record(b1.position);
    await until(() => calls.length === 2);
    expect(calls).toEqual([
      ['first', ['A']],
      ['second', ['A', 'B']],
    ]);

    head.record(a2.position);
    await until(() => calls.length === 4);
    expect(calls.slice(2)).toEqual([
      ['first', ['A']],
      ['second', ['A']],
    ]);
  });
});
