import type { EventStore, Position, RecordedEvent } from '@tollgate/event-store/event-store.port';
import { comparePositions } from '@tollgate/event-store/event-store.port';
import type { ReadStore, ReadStoreSession } from '../read-store.port';
import { applyEvents } from './apply-events';
import { checkpointCollection, CHECKPOINTS, writeCheckpoint } from './checkpoint';
import type { Projection } from './projection';
import { markInBatch } from './standalone-guard';

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
}

export interface RebuildResult {
  /** Events read and applied (those of a type some projection handles). */
  readonly events: number;
  /** Events applied per projection name. */
  readonly applied: Record<string, number>;
  /** The checkpoint every projection now holds (the log's head at start), null for an empty log. */
  readonly position: Position | null;
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
  eventStore: EventStore,
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
  const defer =
    options.deferIndexes !== false &&
    typeof readStore.deferIndexes === 'function' &&
    typeof readStore.buildIndexes === 'function';
  if (!defer || fresh.length === 0) return replay(eventStore, readStore, replayed, options);
  await readStore.deferIndexes!(fresh);
  let result: RebuildResult;
  try {
    result = await replay(eventStore, readStore, replayed, options);
  } catch (error) {
    // The store stays usable: its indexes now, or at the next declare() if this fails too.
    await readStore.buildIndexes!().catch(() => undefined);
    throw error;
  }
  // Killed from here on, the checkpoints are at the head and the next declare() builds the rest.
  options.onBuildingIndexes?.();
  await readStore.buildIndexes!();
  return result;
}

/** Replays the log up to its head at start into the (reset) read models, page by page. */
async function replay(
  eventStore: EventStore,
  readStore: ReadStore,
  replayed: readonly Replayed[],
  options: RebuildOptions,
): Promise<RebuildResult> {
  const projections = replayed.map((r) => r.projection);
  const applied = Object.fromEntries(projections.map((p) => [p.name, 0]));
  const head = await eventStore.headPosition();
  if (head === null) {
    options.onProgress?.(0, 0);
    return { events: 0, applied, position: null };
  }
  const total = Number(head.commit);
  const from = replayStart(replayed);
  options.onProgress?.(from === 'start' ? 0 : Math.min(total, Number(from.commit)), total);

  let done = 0;
  // A projection ahead of the page (it resumes later than another) keeps its own position.
  const checkpointAll = async (session: ReadStoreSession, position: Position) => {
    for (const { projection, after } of replayed)
      await writeCheckpoint(session, projection.name, later(after, position), projection.version);
  };
  for await (const events of pages(eventStore, replayed, from, head, options.batchSize ?? 1000)) {
    const last = events[events.length - 1]!.position;
    const counts = new Map<string, number>();
    // Without atomic transactions a page interrupted half-way stays marked: the runners then
    // rebuild those projections instead of replaying the page on top of its first half.
    if (!readStore.atomicTransactions)
      await markInBatch(
        readStore,
        projections.map((p) => p.name),
        last,
      );
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
      await checkpointAll(session, last);
    });
    for (const [name, n] of counts) applied[name] = (applied[name] ?? 0) + n;
    done += events.length;
    options.onProgress?.(Math.min(total, Number(last.commit)), total);
  }
  await readStore.transaction((session) => checkpointAll(session, head));
  options.onProgress?.(total, total);
  return { events: done, applied, position: head };
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
  eventStore: EventStore,
  replayed: readonly Replayed[],
  from: Position | 'start',
  head: Position,
  batchSize: number,
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
