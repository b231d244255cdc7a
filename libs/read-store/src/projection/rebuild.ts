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
}

export interface RebuildResult {
  /** Events read and applied (those of a type some projection handles). */
  readonly events: number;
  /** Events applied per projection name. */
  readonly applied: Record<string, number>;
  /** The checkpoint every projection now holds (the log's head at start), null for an empty log. */
  readonly position: Position | null;
}

/**
 * Rebuilds read models offline (gateway stopped): drops their collections and checkpoints, then replays
 * the log up to its current head in pages, one transaction per page including the checkpoints, so an
 * interrupted rebuild resumes from where it stopped when the runners start (on a store without
 * atomic transactions: the runners rebuild what the interrupted page had marked).
 */
export async function rebuildProjections(
  eventStore: EventStore,
  readStore: ReadStore,
  projections: readonly Projection[],
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const batchSize = options.batchSize ?? 1000;
  // Dropped before they are declared: declaring would first bring an old table to the new layout.
  await readStore.declare([checkpointCollection]);
  await readStore.drop(projections.flatMap((p) => p.collections.map((c) => c.name)));
  for (const projection of projections)
    await readStore.collection(CHECKPOINTS).delete(projection.name);
  await readStore.declare(projections.flatMap((p) => p.collections));

  const applied = Object.fromEntries(projections.map((p) => [p.name, 0]));
  const head = await eventStore.headPosition();
  if (head === null) {
    options.onProgress?.(0, 0);
    return { events: 0, applied, position: null };
  }
  const handlers = projections.map((p) => ({ projection: p, types: new Set(p.eventTypes) }));
  // Only events some projection handles are read; the final checkpoint (head) covers the rest.
  const filter = { eventTypes: [...new Set(projections.flatMap((p) => p.eventTypes))] };
  const pages = async function* (): AsyncGenerator<RecordedEvent[]> {
    let from: Position | 'start' = 'start';
    for (;;) {
      const page = await eventStore.readAll({ fromPosition: from, maxCount: batchSize, filter });
      const events = page.filter((e) => comparePositions(e.position, head) <= 0);
      const last = events[events.length - 1];
      if (!last) return;
      yield events;
      if (events.length < page.length || page.length < batchSize) return;
      from = last.position;
    }
  };

  const total = Number(head.commit);
  options.onProgress?.(0, total);

  let done = 0;
  const checkpointAll = async (session: ReadStoreSession, position: Position) => {
    for (const p of projections) await writeCheckpoint(session, p.name, position, p.version);
  };
  for await (const events of pages()) {
    const counts = new Map<string, number>();
    // Without atomic transactions a page interrupted half-way stays marked: the runners then
    // rebuild those projections instead of replaying the page on top of its first half.
    if (!readStore.atomicTransactions)
      await markInBatch(
        readStore,
        projections.map((p) => p.name),
        events[events.length - 1]!.position,
      );
    await readStore.transaction(async (session) => {
      counts.clear(); // a retried transaction starts over
      for (const { projection, types } of handlers) {
        const mine = events.filter((event) => types.has(event.type));
        // The same batch path as the runner: a page of receipts is one write per document.
        await applyEvents(projection, mine, session, readStore);
        counts.set(projection.name, mine.length);
      }
      await checkpointAll(session, events[events.length - 1]!.position);
    });
    for (const [name, n] of counts) applied[name] = (applied[name] ?? 0) + n;
    done += events.length;
    options.onProgress?.(
      Math.min(total, Number(events[events.length - 1]!.position.commit)),
      total,
    );
  }
  await readStore.transaction((session) => checkpointAll(session, head));
  options.onProgress?.(total, total);
  return { events: done, applied, position: head };
}

/** `[#########.....................]  30% 300/1000` for the rebuild CLI. */
export function formatProgressBar(done: number, total: number, width = 30): string {
  const ratio = total <= 0 ? 1 : Math.min(1, Math.max(0, done / total));
  const filled = Math.round(ratio * width);
  const percent = String(Math.floor(ratio * 100)).padStart(3);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${percent}% ${done}/${total}`;
}
