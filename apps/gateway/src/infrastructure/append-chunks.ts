import type { EventData } from '@tollgate/event-store';

/**
 * Bytes of event data and metadata one append carries at most. EventStoreDB refuses an append
 * over 1 MiB of data plus metadata, whole; half of it leaves room for what the server counts
 * besides (ids, types, content types) and keeps one gRPC message well below its limit.
 */
export const MAX_APPEND_BYTES = 512 * 1024;
/** Events one append carries at most (bounds one transaction and one server round trip). */
export const MAX_APPEND_EVENTS = 1000;

export interface AppendLimits {
  readonly maxBytes: number;
  readonly maxEvents: number;
}

export const APPEND_LIMITS: AppendLimits = {
  maxBytes: MAX_APPEND_BYTES,
  maxEvents: MAX_APPEND_EVENTS,
};

/** What the store sends of an event: its data and metadata as JSON, in UTF-8 bytes. */
export function eventBytes(event: EventData): number {
  return (
    Buffer.byteLength(JSON.stringify(event.data ?? null)) +
    Buffer.byteLength(JSON.stringify(event.metadata ?? {}))
  );
}

/**
 * Cuts `items` (in order) into runs of at most `limits.maxEvents` items and `limits.maxBytes`
 * bytes; an item bigger than maxBytes on its own goes alone (no cut can make it smaller). A single
 * item is returned without being measured: the common case under light load costs nothing.
 */
export function chunkBySize<T>(
  items: readonly T[],
  bytesOf: (item: T) => number,
  limits: AppendLimits = APPEND_LIMITS,
): T[][] {
  if (items.length <= 1) return items.length === 0 ? [] : [[...items]];
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (chunk.length > 0 && (chunk.length >= limits.maxEvents || bytes + size > limits.maxBytes)) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  chunks.push(chunk);
  return chunks;
}
