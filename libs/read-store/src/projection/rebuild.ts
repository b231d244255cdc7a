import type { EventStore, Position, RecordedEvent } from '@tollgate/event-store/event-store.port';
import { comparePositions, SecondReaderStoppedError } from '@tollgate/event-store/event-store.port';
import type { ReadStore, ReadStoreSession } from '../read-store.port';
import { applyEvents } from './apply-events';
import { checkpointCollection, CHECKPOINTS, writeCheckpoint } from './checkpoint';
import type { Projection } from './projection';
import type { RebuildLane, StartedLane } from './rebuild-lane';
import { markInBatch } from './standalone-guard';

/** What a rebuild reads: a store's `$all` (a second lane's thread reads the pages it is handed). */
export type RebuildSource = Pick<
  EventStore,
  'headPosition' | 'readAll' | 'readAllPages' | 'sharesPages'
>;

export interface RebuildOptions {
  /**
   * At the start and after each page: how far through the log and its head at start, as commit
   * positions (event numbers on SQLite, log offsets on EventStoreDB: both fine for a ratio). The
   * head gives the total without a counting pass over the whole log first.
   */
  readonly onProgress?: (done: number, total: number) => void;
  /** Events per page and per transaction (default 1000). */
  readonly batchSize?: number;
  /**
   * Projections whose read models already hold every event up to the given position (a restored
   * read-model checkpoint): kept, and fed only the events after it. The others are dropped and
   * replayed from the start.
   */
  readonly resume?: ReadonlyMap<string, Position>;
  /**
   * Default true: on a store that can (`ReadStore.deferIndexes`, SQLite), the secondary indexes of
   * the collections replayed from the start are built once after their rows instead of row by row.
   */
  readonly deferIndexes?: boolean;
  /** After the replay, before the deferred indexes are built (the bar stands at 100 % meanwhile). */
  readonly onBuildingIndexes?: () => void;
  /** A store that is only copied from and removed (a rebuild lane's): its deferred indexes stay unbuilt. */
  readonly leaveIndexesDeferred?: boolean;
  /**
   * A second lane, where the source can hand its pages to another thread (`sharesPages`): the
   * projections it takes among those replayed from the start are applied there, from the same
   * pages, and copied in at the end. The progress is the first lane's.
   */
  readonly lane?: RebuildLane;
}

export interface RebuildResult {
  /** Events read and applied (those of a type some projection handles). */
  readonly events: number;
  /** Events applied per projection name. */
  readonly applied: Record<string, number>;
  /** The checkpoint every projection now holds (the log's head at start), null for an empty log. */
  readonly position: Position | null;
  /** The projections replayed in the second lane (none without one). */
  readonly inLane: readonly string[];
}

interface Replayed {
  readonly projection: Projection;
  readonly types: ReadonlySet<string>;
  /** Events up to here are in its read model already; null: none. */
  readonly after: Position | null;
}

const later = (a: Position | null, b: Position): Position =>
  a !== null && comparePositions(a, b) > 0 ? a : b;

/**
 * Rebuilds read models offline (gateway stopped): drops their collections and checkpoints (except the
 * projections `resume` names), then replays the log up to its current head in pages, one transaction
 * per page including the checkpoints, so an interrupted rebuild resumes from where it stopped when the
 * runners start (on a store without atomic transactions: the runners rebuild what the interrupted
 * page had marked).
 */
export async function rebuildProjections(
  eventStore: RebuildSource,
  readStore: ReadStore,
  projections: readonly Projection[],
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const replayed: Replayed[] = projections.map((projection) => ({
    projection,
    types: new Set(projection.eventTypes),
    after: options.resume?.get(projection.name) ?? null,
  }));
  const fresh = await resetReadModels(readStore, replayed);
  const head = await eventStore.headPosition();
  const defer =
    options.deferIndexes !== false &&
    typeof readStore.deferIndexes === 'function' &&
    typeof readStore.buildIndexes === 'function';
  if (defer && fresh.length > 0) await readStore.deferIndexes!(fresh);
  let result: RebuildResult;
  try {
    result = await replay(eventStore, readStore, replayed, head, options);
  } catch (error) {
    // The store stays usable: its indexes now, or at the next declare() if this fails too.
    if (defer && fresh.length > 0) await readStore.buildIndexes!().catch(() => undefined);
    throw error;
  }
  if (!defer || fresh.length === 0 || options.leaveIndexesDeferred) return result;
  // Killed from here on, the checkpoints are at the head and the next declare() builds the rest.
  options.onBuildingIndexes?.();
  await readStore.buildIndexes!();
  return result;
}

/** The second lane, started with the fresh projections it takes; null when there is none. */
function startLane(
  eventStore: RebuildSource,
  replayed: readonly Replayed[],
  head: Position,
  lane: RebuildLane | undefined,
): StartedLane | null {
  if (!lane || eventStore.sharesPages !== true || !eventStore.readAllPages) return null;
  const taken = replayed
    .filter((r) => r.after === null && lane.takes(r.projection))
    .map((r) => r.projection);
  return taken.length > 0 ? lane.start(taken, head) : null;
}

/**
 * Replays the log up to its head at start into the (reset) read models, page by page; a started
 * lane's projections there, the others here, and the lane's read models copied in at the end.
 */
async function replay(
  eventStore: RebuildSource,
  readStore: ReadStore,
  all: readonly Replayed[],
  head: Position | null,
  options: RebuildOptions,
): Promise<RebuildResult> {
  const applied = Object.fromEntries(all.map((r) => [r.projection.name, 0]));
  if (head === null) {
    options.onProgress?.(0, 0);
    return { events: 0, applied, position: null, inLane: [] };
  }
  const total = Number(head.commit);
  const from = replayStart(all);
  options.onProgress?.(from === 'start' ? 0 : Math.min(total, Number(from.commit)), total);

  // Started here, from where the try below stops it on any failure.
  const lane = startLane(eventStore, all, head, options.lane);
  const inLane = new Set(lane?.projections.map((p) => p.name));
  const replayed = all.filter((r) => !inLane.has(r.projection.name));
  const projections = replayed.map((r) => r.projection);
  // A rejected lane is awaited below; until then its failure must not count as unhandled.
  const laneOutcome = lane?.finished.then(
    (counts) => ({ counts }),
    (error: unknown) => ({ error }),
  );
  let done = 0;
  // A projection ahead of the page (it resumes later than another) keeps its own position.
  const checkpointAll = async (session: ReadStoreSession, position: Position) => {
    for (const { projection, after } of replayed)
      await writeCheckpoint(session, projection.name, later(after, position), projection.version);
  };
  try {
    const pageSize = options.batchSize ?? 1000;
    for await (const events of pages(eventStore, all, from, head, pageSize, lane)) {
      const last = events[events.length - 1]!.position;
      // Without atomic transactions a page interrupted half-way stays marked: the runners then
      // rebuild those projections instead of replaying the page on top of its first half.
      if (!readStore.atomicTransactions)
        await markInBatch(
          readStore,
          projections.map((p) => p.name),
          last,
        );
      const counts = await applyPage(readStore, replayed, events, (session) =>
        checkpointAll(session, last),
      );
      for (const [name, n] of counts) applied[name] = (applied[name] ?? 0) + n;
      done += events.length;
      options.onProgress?.(Math.min(total, Number(last.commit)), total);
    }
    await readStore.transaction((session) => checkpointAll(session, head));
  } catch (error) {
    // The reader stops when the lane does: then the lane's own error says why.
    const outcome = error instanceof SecondReaderStoppedError ? await laneOutcome : undefined;
    await lane?.abort();
    throw outcome && 'error' in outcome ? outcome.error : error;
  }
  if (lane && laneOutcome) Object.assign(applied, await finishLane(lane, laneOutcome, readStore));
  options.onProgress?.(total, total);
  return { events: done, applied, position: head, inLane: [...inLane] };
}

/** One page in one transaction with the checkpoints; the events applied per projection. */
async function applyPage(
  readStore: ReadStore,
  replayed: readonly Replayed[],
  events: readonly RecordedEvent[],
  checkpoint: (session: ReadStoreSession) => Promise<void>,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  await readStore.transaction(async (session) => {
    counts.clear(); // a retried transaction starts over
    for (const { projection, types, after } of replayed) {
      const mine = events.filter(
        (e) => types.has(e.type) && (after === null || comparePositions(e.position, after) > 0),
      );
      // The same batch path as the runner: a page of receipts is one write per document.
      await applyEvents(projection, mine, session, readStore);
      counts.set(projection.name, mine.length);
    }
    await checkpoint(session);
  });
  return counts;
}

/**
 * Waits for the lane to apply its last page, then copies its read models in: its projections have
 * no checkpoint here until this copy, which brings them in one transaction. Its counts.
 */
async function finishLane(
  lane: StartedLane,
  outcome: Promise<{ counts: Record<string, number> } | { error: unknown }>,
  readStore: ReadStore,
): Promise<Record<string, number>> {
  const settled = await outcome;
  if ('error' in settled) {
    await lane.abort();
    throw settled.error;
  }
  await lane.mergeInto(readStore);
  return settled.counts;
}

/**
 * Drops what is replayed from the start; keeps (and declares) the rest. Returns the dropped
 * collections' names.
 */
async function resetReadModels(
  readStore: ReadStore,
  replayed: readonly Replayed[],
): Promise<string[]> {
  const fresh = replayed.filter((r) => r.after === null).map((r) => r.projection);
  const dropped = [...new Set(fresh.flatMap((p) => p.collections.map((c) => c.name)))];
  // Dropped before they are declared: declaring would first bring an old table to the new layout.
  await readStore.declare([checkpointCollection]);
  await readStore.drop(dropped);
  for (const projection of fresh) await readStore.collection(CHECKPOINTS).delete(projection.name);
  await readStore.declare(replayed.flatMap((r) => r.projection.collections));
  return dropped;
}

/** Where the replay reads from: the oldest position any projection still needs. */
function replayStart(replayed: readonly Replayed[]): Position | 'start' {
  let oldest: Position | null = null;
  for (const { after } of replayed) {
    if (after === null) return 'start';
    if (oldest === null || comparePositions(after, oldest) < 0) oldest = after;
  }
  return oldest ?? 'start';
}

/** Pages of the events some projection handles, after `from` and up to `head`. */
async function* pages(
  eventStore: RebuildSource,
  replayed: readonly Replayed[],
  from: Position | 'start',
  head: Position,
  batchSize: number,
  lane: StartedLane | null,
): AsyncGenerator<RecordedEvent[]> {
  // Only events some projection handles are read; the final checkpoint (head) covers the rest.
  const filter = { eventTypes: [...new Set(replayed.flatMap((r) => [...r.types]))] };
  if (eventStore.readAllPages) {
    // The store reads the next pages while this one is applied (SQLite: on another thread).
    yield* eventStore.readAllPages({
      fromPosition: from,
      toPosition: head,
      pageSize: batchSize,
      filter,
      ...(lane ? { alsoTo: lane.port } : {}),
    });
    return;
  }
  let position = from;
  for (;;) {
    const page = await eventStore.readAll({ fromPosition: position, maxCount: batchSize, filter });
    const events = page.filter((e) => comparePositions(e.position, head) <= 0);
    const last = events[events.length - 1];
    if (!last) return;
    yield events;
    if (events.length < page.length || page.length < batchSize) return;
    position = last.position;
  }
}

/** `[#########.....................]  30% 300/1000` for the rebuild CLI. */
export function formatProgressBar(done: number, total: number, width = 30): string {
  const ratio = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = Math.round(ratio * width);
  const percent = String(Math.floor(ratio * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${done}/${total}`;
}
