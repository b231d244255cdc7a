import { createHash, randomUUID } from 'node:crypto';
import {
  BACKWARDS,
  END,
  NO_STREAM,
  StreamNotFoundError,
  WrongExpectedVersionError,
  jsonEvent,
  type AppendExpectedRevision,
  type ResolvedEvent,
} from '@eventstore/db-client';
import {
  WrongExpectedRevisionError,
  type AppendResult,
  type EventData,
  type ExpectedRevision,
} from '../event-store.port';
import { DuplicateEventIdError } from '../shared/duplicate-event-id-error';
import type { AppendIo } from './esdb-append';
import { MARKER_STREAM_PREFIX } from './esdb-mapping';
import { isTransient, withRetry } from './esdb-retry';

/** A claim younger than this whose events are not (yet) in the stream is an append in flight. */
export const CLAIM_HOLD_MS = 30_000;
/** How long after its claim an append's events can land: the presence search stops there. */
const CLAIM_WRITE_WINDOW_MS = 60_000;
const PRESENCE_PAGE = 100;
const CLAIMED = 'IdempotencyKeyClaimed';
const RELEASED = 'IdempotencyKeyReleased';

interface Claim {
  readonly streamId: string;
  /** The earliest revision the claiming append's first event can have. */
  readonly fromRevision: number;
  readonly firstEventId: string;
  /** Absent while its first event is there: a split append that stopped part way. */
  readonly lastEventId: string;
}

/** Writes events at an expected revision (the appender's chunked write). */
export type WriteEvents = (
  events: readonly EventData[],
  expected: ExpectedRevision,
) => Promise<AppendResult>;

export interface KeyedAppend {
  readonly key: string;
  readonly streamId: string;
  readonly events: readonly EventData[];
  readonly expected: ExpectedRevision;
}

/** The marker stream of a key: the key itself never reaches the server. */
export function markerStreamOf(key: string): string {
  return `${MARKER_STREAM_PREFIX}${createHash('sha256').update(key).digest('hex')}`;
}

/**
 * An append carrying an idempotency key. The server deduplicates ids only at the same expected
 * revision or while they are in its recent-commits cache, so the key is recorded in a marker stream
 * of its own: a claim {stream, first revision, first event id} appended with the marker stream's
 * expected revision BEFORE the events.
 * - A later append with the key reads the last marker. A claim whose first event is in the target
 *   stream (searched from the claimed revision) means written: DuplicateEventIdError, however busy
 *   the stream is. A claim younger than CLAIM_HOLD_MS without its events is an append in flight:
 *   DuplicateEventIdError too. An older one failed: a new claim is appended after it and the events
 *   are written.
 * - Two concurrent appends with the key: both claim at one marker revision; the server refuses one
 *   (wrong expected version), which answers DuplicateEventIdError.
 * - A claim whose append was refused for its expected revision is released, so a retry after a
 *   reload goes ahead at once.
 * - A split append (over the server's size limit) that stopped part way left its first events but
 *   not its last: the same append repeated with the key writes only the events still missing.
 * Window left: an append that claimed and then died before writing its events makes every append
 * with the key answer "duplicate" (nothing written) until CLAIM_HOLD_MS has passed since the claim.
 * Claim times are the server's clock, compared with ours: a skew shortens or lengthens that hold.
 */
export async function keyedAppend(
  io: AppendIo,
  now: () => number,
  append: KeyedAppend,
  write: WriteEvents,
): Promise<AppendResult> {
  const { streamId, events, expected } = append;
  const marker = markerStreamOf(append.key);
  const last = await lastMarker(io, marker);
  if (last?.event?.type === CLAIMED) {
    const claim = last.event.data as unknown as Claim;
    const claimedAt = last.event.created.getTime();
    const ids = new Set([claim.firstEventId, claim.lastEventId, ...events.map((e) => e.id)]);
    const found = await claimedEvents(io, claim, claimedAt, ids);
    const started = found.has(claim.firstEventId);
    if (started && (found.has(claim.lastEventId) || claim.firstEventId !== events[0]!.id)) {
      throw duplicate(streamId, 'an earlier append with this idempotency key was written');
    }
    if (started) {
      // The same split append, stopped part way: write what is missing after what is there.
      const missing = events.filter((e) => !found.has(e.id));
      if (missing.length === 0) throw duplicate(streamId, 'these events were written already');
      const at = Math.max(...[...found.values()]);
      return write(missing, typeof expected === 'number' || expected === 'no_stream' ? at : 'any');
    }
    if (now() - claimedAt < CLAIM_HOLD_MS) {
      throw duplicate(streamId, 'an append with this idempotency key is in flight');
    }
  }
  const markerExpected: AppendExpectedRevision = last?.event ? last.event.revision : NO_STREAM;
  const claim: Claim = {
    streamId,
    fromRevision: await firstRevisionFor(io, streamId, expected),
    firstEventId: events[0]!.id,
    lastEventId: events[events.length - 1]!.id,
  };
  const claimed = await appendMarker(io, marker, CLAIMED, claim, markerExpected);
  try {
    return await write(events, expected);
  } catch (error) {
    // Refused for its expected revision before its first event: the key is free again. (A split
    // append refused part way keeps it: its repeat completes it.)
    if (error instanceof WrongExpectedRevisionError) {
      const wrote = await claimedEvents(io, claim, Infinity, new Set([claim.firstEventId]));
      if (wrote.size === 0) {
        await appendMarker(io, marker, RELEASED, {}, claimed).catch(() => undefined);
      }
    }
    throw error;
  }
}

/** Appends one marker; returns its revision. Lost answers are retried once with the same id. */
async function appendMarker(
  io: AppendIo,
  marker: string,
  type: string,
  data: object,
  expected: AppendExpectedRevision,
): Promise<bigint> {
  const event = jsonEvent({ id: randomUUID(), type, data: data as never, metadata: {} });
  const send = async (): Promise<bigint> => {
    const result = await io.client.appendToStream(marker, [event], { expectedRevision: expected });
    if (!result.success) throw duplicate(marker, 'the idempotency key was claimed concurrently');
    return result.nextExpectedRevision;
  };
  try {
    try {
      return await send();
    } catch (error) {
      // Same id at the same expected revision: the server answers an idempotent success if it was
      // written before the answer got lost.
      if (isTransient(error)) return await send();
      throw error;
    }
  } catch (error) {
    if (error instanceof WrongExpectedVersionError) {
      throw duplicate(marker, 'the idempotency key was claimed concurrently');
    }
    throw error;
  }
}

/** The marker stream's last record, read raw: the store's own reads hide marker streams. */
function lastMarker(io: AppendIo, marker: string): Promise<ResolvedEvent | undefined> {
  return withRetry(io.retry, async () => {
    try {
      for await (const resolved of io.client.readStream(marker, {
        direction: BACKWARDS,
        fromRevision: END,
        maxCount: 1,
      })) {
        return resolved;
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
    return undefined;
  });
}

async function firstRevisionFor(
  io: AppendIo,
  streamId: string,
  expected: ExpectedRevision,
): Promise<number> {
  if (typeof expected === 'number') return expected + 1;
  if (expected === 'no_stream') return 0;
  return ((await io.streamRevision(streamId)) ?? -1) + 1;
}

/**
 * Revisions of the given ids in the claim's stream, searched from the claimed revision until events
 * recorded after the claim's write window.
 */
async function claimedEvents(
  io: AppendIo,
  claim: Claim,
  claimedAt: number,
  ids: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let from = claim.fromRevision;
  for (;;) {
    const page = await io.readStream(claim.streamId, {
      fromRevision: from,
      maxCount: PRESENCE_PAGE,
    });
    for (const event of page) {
      if (event.recordedAt.getTime() > claimedAt + CLAIM_WRITE_WINDOW_MS) return found;
      if (ids.has(event.id)) found.set(event.id, event.revision);
    }
    if (page.length < PRESENCE_PAGE) return found;
    from += PRESENCE_PAGE;
  }
}

function duplicate(streamId: string, why: string): DuplicateEventIdError {
  return new DuplicateEventIdError(streamId, new Error(why));
}
