import type { LogOtherDto } from '@tollgate/contracts';

/** The limit that lowered a request's output ceiling to what its payer could afford. */
export type CeilingLimit = 'user_quota' | 'token_quota' | 'token_budget' | 'user_budget';

/** A consumption row's `other`, with what the gateway records about the output ceiling. */
export interface LogOther extends LogOtherDto {
  /** The output ceiling (tokens) sent upstream, lowered to what the payer could afford. */
  lowered_ceiling?: number;
  /** Which limit lowered it. */
  lowered_by?: CeilingLimit;
  /** Quota units charged past the reservation: the answer cost more than its ceiling's price. */
  overrun?: number;
  /** The upstream wrote more output than the ceiling it was sent. */
  ceiling_ignored?: boolean;
  /** The stream was cut when it reached what was reserved for it. */
  stream_cut?: boolean;
}

/** `other` is JSON text on the wire ('' when none); a malformed one is treated as empty. */
export function parseOther(other: string): LogOther {
  if (!other) return {};
  try {
    const value = JSON.parse(other) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : {};
  } catch {
    return {};
  }
}
