/**
 * Preloaded (`node -r`) into the gateway by allocation.measure: on each SIGUSR2 appends one JSON line
 * to ALLOC_COUNT_FILE with the process's running totals since start — bytes allocated on the V8 heap,
 * scavenges and the bytes they kept, mark-compacts, their pause time and CPU time. Bytes allocated
 * between two collections are the heap's use before the second less its use after the first (V8's
 * GC profiler gives both); the public API has no running total. With ALLOC_PROFILE_DIR set, each
 * signal also closes a sampling heap profile that keeps collected objects too (`--heap-prof` keeps
 * only the live ones, which for a request's short-lived garbage is nearly nothing; with
 * ALLOC_PROFILE_SURVIVORS=1, only what a scavenge kept) and opens the next: profile n covers the
 * span between signal n and n + 1.
 */
import { appendFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { join } from 'node:path';
import { GCProfiler, getHeapStatistics } from 'node:v8';

/** One sample every this many bytes allocated: fine enough for a 10k-request phase. */
const SAMPLING_INTERVAL = 4096;

interface HeapState {
  heapStatistics: { usedHeapSize: number };
  heapSpaceStatistics: { spaceName: string; spaceUsedSize: number }[];
}

interface GcStatistic {
  gcType: string;
  cost: number;
  beforeGC: HeapState;
  afterGC: HeapState;
}

/** The young generation's spaces: what a scavenge empties, copying out what is still reachable. */
const YOUNG_SPACES = new Set(['new_space', 'new_large_object_space']);

/** What a scavenge kept (copied or promoted): the heap after it less the old generation before. */
function survivedBytes(gc: GcStatistic): number {
  let oldBefore = 0;
  for (const space of gc.beforeGC.heapSpaceStatistics)
    if (!YOUNG_SPACES.has(space.spaceName)) oldBefore += space.spaceUsedSize;
  return gc.afterGC.heapStatistics.usedHeapSize - oldBefore;
}

const totals = {
  allocatedBytes: 0,
  scavenges: 0,
  survivedBytes: 0,
  markCompacts: 0,
  gcPauseUs: 0,
};
let usedAfterLast = getHeapStatistics().used_heap_size;
let profiler = new GCProfiler();
profiler.start();

function fold(statistics: readonly GcStatistic[]): void {
  for (const gc of statistics) {
    totals.allocatedBytes += gc.beforeGC.heapStatistics.usedHeapSize - usedAfterLast;
    usedAfterLast = gc.afterGC.heapStatistics.usedHeapSize;
    totals.gcPauseUs += gc.cost;
    if (gc.gcType === 'Scavenge') {
      totals.scavenges += 1;
      totals.survivedBytes += survivedBytes(gc);
    }
    if (gc.gcType === 'MarkSweepCompact') totals.markCompacts += 1;
  }
}

function snapshot(): string {
  fold((profiler.stop() as { statistics: GcStatistic[] }).statistics);
  profiler = new GCProfiler();
  profiler.start();
  const usedNow = getHeapStatistics().used_heap_size;
  const cpu = process.cpuUsage();
  return JSON.stringify({
    ...totals,
    allocatedBytes: totals.allocatedBytes + usedNow - usedAfterLast,
    cpuUs: cpu.user + cpu.system,
  });
}

const profileDir = process.env.ALLOC_PROFILE_DIR;
/** ALLOC_PROFILE_SURVIVORS=1: what a scavenge freed is left out of the profile. */
const survivorsOnly = process.env.ALLOC_PROFILE_SURVIVORS === '1';
const session = profileDir ? new Session() : undefined;
let profiles = 0;

function nextProfile(done: () => void): void {
  if (!session) return done();
  const start = () =>
    session.post(
      'HeapProfiler.startSampling',
      {
        samplingInterval: SAMPLING_INTERVAL,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: !survivorsOnly,
      },
      () => done(),
    );
  if (profiles === 0) {
    profiles = 1;
    return session.post('HeapProfiler.enable', start);
  }
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error)
      writeFileSync(join(profileDir!, `${profiles}.heapprofile`), JSON.stringify(result.profile));
    profiles += 1;
    start();
  });
}

session?.connect();
process.on('SIGUSR2', () => {
  const line = snapshot();
  nextProfile(() => appendFileSync(process.env.ALLOC_COUNT_FILE!, `${line}\n`));
});
