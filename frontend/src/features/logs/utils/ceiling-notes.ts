import type { CeilingLimit, LogOther } from './log-other';

const CEILING_LIMITS: readonly CeilingLimit[] = [
  'user_quota',
  'token_quota',
  'token_budget',
  'user_budget',
];

/** What a consumption row says about its output ceiling, one note per fact, in reading order. */
export type CeilingNote =
  /** Lowered to `tokens`; `limit` is null when the row names a limit this console does not know. */
  | { kind: 'lowered'; tokens: number; limit: CeilingLimit | null }
  /** `quota` units charged past the reservation. */
  | { kind: 'overrun'; quota: number }
  | { kind: 'ignored' }
  | { kind: 'cut' };

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

/**
 * Reads the ceiling fields of `other` (JSON from the server, so each is checked before use): the
 * ceiling lowered and by which limit, the overrun, the upstream ignoring its ceiling, the cut stream.
 */
export function ceilingNotes(other: LogOther): CeilingNote[] {
  const notes: CeilingNote[] = [];
  if (isCount(other.lowered_ceiling)) {
    const limit = CEILING_LIMITS.find((known) => known === other.lowered_by) ?? null;
    notes.push({ kind: 'lowered', tokens: other.lowered_ceiling, limit });
  }
  if (isCount(other.overrun) && other.overrun > 0) {
    notes.push({ kind: 'overrun', quota: other.overrun });
  }
  if (other.ceiling_ignored === true) notes.push({ kind: 'ignored' });
  if (other.stream_cut === true) notes.push({ kind: 'cut' });
  return notes;
}
