/**
 * How the projection path recognises a read-store error that says "try again": MongoDB's driver
 * labels them (`errorLabels`, `hasErrorLabel` on MongoError). Duck-typed so this folder stays free
 * of the driver; the SQLite adapter's errors carry no labels.
 */

/** Labels under which MongoDB (or its driver) says the operation may succeed when run again. */
const RETRY_LABELS: ReadonlySet<string> = new Set([
  // A write conflict, a failover or a network error inside a transaction: run the body again.
  'TransientTransactionError',
  // The commit's outcome is unknown: it may have landed (the checkpoint read in the next attempt tells).
  'UnknownTransactionCommitResult',
  'RetryableWriteError',
  'RetryableError',
]);

/** Driver errors without a label that still only mean "no server to talk to right now". */
const UNAVAILABLE_NAMES: ReadonlySet<string> = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
]);

/** The labels a (MongoDB) error carries; none for any other error. */
export function errorLabels(error: unknown): readonly string[] {
  if (typeof error !== 'object' || error === null) return [];
  const labels = (error as { errorLabels?: unknown }).errorLabels;
  return Array.isArray(labels) ? labels.filter((l): l is string => typeof l === 'string') : [];
}

/**
 * Whether the error (or the error it wraps) is the store being briefly unavailable or in conflict
 * rather than a bug: the batch is worth applying again later.
 */
export function isTransientStoreError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 3; e = e.cause, depth++) {
    if (errorLabels(e).some((label) => RETRY_LABELS.has(label))) return true;
    if (UNAVAILABLE_NAMES.has(e.name)) return true;
  }
  return false;
}
