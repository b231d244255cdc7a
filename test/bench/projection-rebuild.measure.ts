/**
 * `node dist/test/bench/projection-rebuild.measure.js [receipts] [rounds] [each|indexes|<projection>]` (after `npm run bench -- --quick`
 * built it): how fast every projection of the gateway rebuilds from a log that is mostly usage
 * receipts, offline (`rebuildProjections`, the CLI) and by the runner's catch-up (an empty read store
 * at start-up). "one by one" is the same code on a store that says it has no atomic transactions:
 * nothing is merged, every receipt is its own guarded write per user, token and channel (what every
 * receipt cost before the batch write buffer); "merged" is the normal path. Same log, same run.
 * The baseline is main's write pattern, not main's runner code (gone from the tree): main's catch-up
 * also read the log once per projection (eight subscriptions), so its catch-up was slower still.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  SqliteReadStore,
  rebuildProjections,
  type ReadStore,
} from '@tollgate/read-store';
import { ALL_PROJECTIONS } from '../../apps/gateway/src/projection-registry';
import { seedReceiptLog } from './receipt-log';

const RECEIPTS = Number(process.argv[2] ?? 50_000);
/** Each mode runs this many times; the best run counts (the machine is shared). */
const ROUNDS = Number(process.argv[3] ?? 2);
/**
 * `each` as third argument: also rebuild every projection alone (merged) to see where the CPU goes;
 * a projection's name instead: only that one, alone (for a profile of it).
 */
const EACH = process.argv[4] === 'each';
/**
 * `indexes` as third argument: only the offline rebuild (merged), its indexes built row by row
 * (`deferIndexes: false`, as before) against once after the rows (the default), alternating.
 */
const INDEXES = process.argv[4] === 'indexes';
const ONLY = process.argv[4] && !EACH && !INDEXES ? process.argv[4] : undefined;
/** The same store, claiming no atomic transactions: the batch buffer then merges nothing. */
function oneByOne(store: ReadStore): ReadStore {
  return new Proxy(store, {
    get: (target, key, receiver) =>
      key === 'atomicTransactions' ? false : (Reflect.get(target, key, receiver) as unknown),
  });
}

/** Wall and CPU milliseconds (CPU time says more than wall time on a shared machine). */
async function timed(fn: () => Promise<void>): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  await fn();
  const used = process.cpuUsage(cpu);
  return { ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 };
}

/** The receipt log's first hour, in the stored rows' `t` (seconds). */
const FIRST_HOUR = Date.parse('2026-01-15T08:00:00.000Z') / 1000;
const SECOND_HOUR = FIRST_HOUR + 3600;

/** The rebuild with its indexes built row by row, then after the rows, ROUNDS times each. */
async function compareIndexes(
  events: SqliteEventStore,
  total: number,
  fresh: () => SqliteReadStore,
): Promise<void> {
  const modes = [
    ['row by row', false],
    ['after the rows', true],
  ] as const;
  const results: Record<string, Array<{ wall: number; cpu: number }>> = {};
  const snapshots = new Set<string>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [mode, deferIndexes] of modes) {
      const store = fresh();
      const { ms, cpuMs } = await timed(async () => {
        await rebuildProjections(events, store, ALL_PROJECTIONS, { deferIndexes });
      });
      (results[mode] ??= []).push({ wall: (total / ms) * 1000, cpu: (total / cpuMs) * 1000 });
      const users = await store.collection('users').find({}, { sort: { id: 1 } });
      // Answered through the deferred indexes (user 7's latest rows, the rows of one hour).
      const latest = await store
        .collection('logs')
        .find({ u: 7 }, { sort: { _id: -1 }, limit: 50 });
      const hour = await store
        .collection('logs')
        .count({ t: { $gte: FIRST_HOUR, $lt: SECOND_HOUR } });
      snapshots.add(JSON.stringify([users, latest, hour]));
      await store.close();
    }
  }
  for (const [mode] of modes) {
    const runs = results[mode] ?? [];
    const wall = Math.max(...runs.map((r) => r.wall));
    const cpu = Math.max(...runs.map((r) => r.cpu));
    console.log(
      `rebuild, indexes ${mode}: ${Math.round(wall)} events/s (${Math.round(cpu)} per CPU-second)`,
    );
  }
  const [sample] = [...snapshots].map((text) => JSON.parse(text) as [unknown[], unknown[], number]);
  console.log(
    `same users and logs answers in both modes: ${snapshots.size === 1} ` +
      `(${sample?.[0].length} users, ${sample?.[1].length} of user 7's rows, ${sample?.[2]} rows in the first hour)`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-rebuild-'));
  const events = SqliteEventStore.open(join(dir, 'events.sqlite'));
  try {
    const total = await seedReceiptLog(events, RECEIPTS);
    console.log(`log: ${total} events (${RECEIPTS} receipts)`);
    if (ONLY) {
      const projection = ALL_PROJECTIONS.find((p) => p.name === ONLY);
      if (!projection) throw new Error(`no projection ${ONLY}`);
      const store = new SqliteReadStore(join(dir, 'read-only.sqlite'), { readers: 1 });
      const { ms, cpuMs } = await timed(async () => {
        await rebuildProjections(events, store, [projection]);
      });
      console.log(`${ONLY} alone (merged): ${Math.round(ms)} ms, ${Math.round(cpuMs)} CPU ms`);
      await store.close();
      return;
    }
    let run = 0;
    const fresh = () => new SqliteReadStore(join(dir, `read-${run++}.sqlite`), { readers: 1 });
    if (INDEXES) return await compareIndexes(events, total, fresh);
    const modes: Array<[string, (s: ReadStore) => ReadStore]> = [
      ['one by one', oneByOne],
      ['merged', (s) => s],
    ];
    const results: Record<string, number[]> = {};
    const snapshots: Record<string, string> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const [mode, wrap] of modes) {
        for (const path of ['rebuild', 'catch-up'] as const) {
          const base = fresh();
          const store = wrap(base);
          const { ms, cpuMs } = await timed(async () => {
            if (path === 'rebuild') await rebuildProjections(events, store, ALL_PROJECTIONS);
            else {
              const host = new ProjectionHost(events, store, ALL_PROJECTIONS);
              await host.start();
              await host.stop();
            }
          });
          (results[`${path} ${mode}`] ??= []).push((total / ms) * 1000);
          (results[`${path} ${mode} cpu`] ??= []).push((total / cpuMs) * 1000);
          const users = await base.collection('users').find({}, { sort: { id: 1 } });
          const tokens = await base.collection('tokens').find({}, { sort: { id: 1 } });
          snapshots[`${path} ${mode}`] = JSON.stringify([users, tokens]);
          await base.close();
        }
      }
    }
    const best = (key: string) => Math.max(...(results[key] ?? [0]));
    for (const path of ['rebuild', 'catch-up']) {
      const before = best(`${path} one by one`);
      const after = best(`${path} merged`);
      const beforeCpu = best(`${path} one by one cpu`);
      const afterCpu = best(`${path} merged cpu`);
      console.log(
        `${path}: one by one ${Math.round(before)} events/s (${Math.round(beforeCpu)} per CPU-second), ` +
          `merged ${Math.round(after)} events/s (${Math.round(afterCpu)} per CPU-second), ` +
          `ratio ${(after / before).toFixed(2)}× wall, ${(afterCpu / beforeCpu).toFixed(2)}× CPU`,
      );
    }
    const same = new Set(Object.values(snapshots)).size === 1;
    console.log(`same users and tokens documents in every mode: ${same}`);
    if (!EACH) return;
    for (const projection of ALL_PROJECTIONS) {
      const store = fresh();
      const { ms, cpuMs } = await timed(async () => {
        await rebuildProjections(events, store, [projection]);
      });
      console.log(
        `${projection.name} alone (merged): ${Math.round(ms)} ms, ${Math.round(cpuMs)} CPU ms`,
      );
      await store.close();
    }
  } finally {
    await events.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
