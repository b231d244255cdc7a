import type { ChunkLimits } from '@tollgate/event-store';

/**
 * Bytes of event data and metadata one append carries at most. EventStoreDB refuses an append
 * over 1 MiB of data plus metadata, whole; half of it leaves room for what the server counts
 * besides (ids, types, content types) and keeps one gRPC message well below its limit.
 */
export const MAX_APPEND_BYTES = 512 * 1024;
/** Events one append carries at most (bounds one transaction and one server round trip). */
export const MAX_APPEND_EVENTS = 1000;

/** The gateway's batching appenders (usage receipts, the log import) cut their appends at these. */
export const APPEND_LIMITS: ChunkLimits = {
  maxBytes: MAX_APPEND_BYTES,
  maxEvents: MAX_APPEND_EVENTS,
};
