import type { HistoryChangeDto } from '@tollgate/contracts';

/**
 * Bookkeeping the server records but nobody edits: when a channel was last tested and how fast,
 * usage counters, the time a balance was read, the deletion flag (the event's name says it).
 */
const INTERNAL_FIELDS = new Set([
  'test_time',
  'response_time',
  'used_quota',
  'used_count',
  'request_count',
  'balance_updated_time',
  'deleted',
]);

/** null, '', [] and {}: "nothing", however it was stored. */
export function isBlank(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

const same = (a: unknown, b: unknown) =>
  (isBlank(a) && isBlank(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * The lines worth reading: secrets and amounts always; other fields only when they moved, and
 * never the internal ones. A balance change (a delta) is kept even on a counter field.
 */
export function visibleChanges(changes: readonly HistoryChangeDto[]): HistoryChangeDto[] {
  return changes.filter((change) => {
    if (change.secret) return true;
    if (typeof change.delta === 'number') return change.delta !== 0;
    if (INTERNAL_FIELDS.has(change.field)) return false;
    return !same(change.before, change.after);
  });
}
