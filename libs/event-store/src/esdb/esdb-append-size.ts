import type { EventData } from '../event-store.port';
import { chunkBySize, eventBytes } from '../shared/chunk-by-size';

/** The server refuses one append whose events hold more than this (MaxAppendSize, data + metadata). */
export const SERVER_MAX_APPEND_BYTES = 1_048_576;
/** What one append to the server carries at most: headroom under the limit for framing. */
export const APPEND_CHUNK_BYTES = 1_000_000;

/**
 * Splits an append into consecutive chunks of at most `chunkBytes` each (an event larger than that
 * goes alone). An event the server would refuse even alone fails here, before anything is written.
 */
export function chunkAppend(
  streamId: string,
  events: readonly EventData[],
  chunkBytes = APPEND_CHUNK_BYTES,
  maxAppendBytes = SERVER_MAX_APPEND_BYTES,
): EventData[][] {
  const bytesOf = (event: EventData): number => {
    const bytes = eventBytes(event);
    if (bytes > maxAppendBytes) {
      throw new Error(
        `Event ${event.id} (${event.type}) to ${streamId} holds ${bytes} bytes of data and ` +
          `metadata; EventStoreDB accepts at most ${maxAppendBytes} per append. Nothing was written.`,
      );
    }
    return bytes;
  };
  // chunkBySize does not measure a lone event; the server's limit still applies to it.
  if (events.length === 1) bytesOf(events[0]!);
  return chunkBySize(events, bytesOf, { maxBytes: chunkBytes });
}
