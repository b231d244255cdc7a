import type { EventData } from '../event-store.port';

/** The server refuses one append whose events hold more than this (MaxAppendSize, data + metadata). */
export const SERVER_MAX_APPEND_BYTES = 1_048_576;
/** What one append to the server carries at most: headroom under the limit for framing. */
export const APPEND_CHUNK_BYTES = 1_000_000;

/** Bytes the server counts for an event: its data and metadata as the client serialises them. */
export function eventBytes(event: EventData): number {
  return (
    Buffer.byteLength(JSON.stringify(event.data ?? null), 'utf8') +
    Buffer.byteLength(JSON.stringify(event.metadata ?? {}), 'utf8')
  );
}

/**
 * Splits an append into consecutive chunks of at most `chunkBytes` each (an event larger than that
 * goes alone). An event the server would refuse even alone fails here, before anything is written.
 */
export function chunkBySize(
  streamId: string,
  events: readonly EventData[],
  chunkBytes = APPEND_CHUNK_BYTES,
  maxAppendBytes = SERVER_MAX_APPEND_BYTES,
): EventData[][] {
  const chunks: EventData[][] = [];
  let chunk: EventData[] = [];
  let size = 0;
  for (const event of events) {
    const bytes = eventBytes(event);
    if (bytes > maxAppendBytes) {
      throw new Error(
        `Event ${event.id} (${event.type}) to ${streamId} holds ${bytes} bytes of data and ` +
          `metadata; EventStoreDB accepts at most ${maxAppendBytes} per append. Nothing was written.`,
      );
    }
    if (chunk.length > 0 && size + bytes > chunkBytes) {
      chunks.push(chunk);
      chunk = [];
      size = 0;
    }
    chunk.push(event);
    size += bytes;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}
