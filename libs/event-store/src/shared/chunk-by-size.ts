import type { EventData } from '../event-store.port';
import { eventJson } from './event-json';

/** What a store sends of an event: its data and metadata as JSON, in UTF-8 bytes. */
export function eventBytes(event: EventData): number {
  const { data, metadata } = eventJson(event);
  return Buffer.byteLength(data) + Buffer.byteLength(metadata);
}

export interface ChunkLimits {
  readonly maxBytes: number;
  /** No count limit when absent. */
  readonly maxEvents?: number;
}

/**
 * Cuts `items` (in order) into runs of at most `limits.maxEvents` items and `limits.maxBytes`
 * bytes; an item bigger than maxBytes on its own goes alone (no cut can make it smaller). A single
 * item is returned without being measured: the common case under light load costs nothing.
 */
export function chunkBySize<T>(
  items: readonly T[],
  bytesOf: (item: T) => number,
  limits: ChunkLimits,
): T[][] {
  if (items.length <= 1) return items.length === 0 ? [] : [[...items]];
  const maxEvents = limits.maxEvents ?? Number.POSITIVE_INFINITY;
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = bytesOf(item);
    if (chunk.length > 0 && (chunk.length >= maxEvents || bytes + size > limits.maxBytes)) {
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
