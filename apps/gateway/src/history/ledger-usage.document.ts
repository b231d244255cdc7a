export const LEDGER_USAGE = 'ledger_usage';
export const LEDGER_TOKEN_CAPS = 'ledger_token_caps';

export type UsageSubject = 'u' | 't';
export type UsageGrain = 'h' | 's';

/**
 * Consumption summed per user or token and per hour (grain h) and per second (grain s): the
 * consumption up to an instant is Σ whole hours before it + Σ seconds of its hour, whatever the
 * log's length. Never cleared (unlike the log rows). A row per receipt's second is the bulk of the
 * collection, so it holds only its sums under short keys: subject, grain and time are its `_id`
 * (usageBucketId), and the sums are ranges over `_id`, the primary key (no index of its own).
 */
export interface LedgerUsageDocument {
  readonly _id: string;
  /** Quota consumed. */
  readonly q: number;
  /** Requests. */
  readonly n: number;
}

/** Unix seconds as 10 digits (until the year 2286): `_id`s of one subject and grain sort by time. */
const TIME_DIGITS = 10;

/** u = user, t = token; t is unix seconds: the hour's first second, or the second. */
export const usageBucketId = (
  subject: UsageSubject,
  id: number,
  grain: UsageGrain,
  t: number,
): string => `${subject}:${id}:${grain}:${String(t).padStart(TIME_DIGITS, '0')}`;

/** The `_id` range of a subject's buckets of one grain from `from` to `to` (seconds, inclusive). */
export const usageRange = (
  subject: UsageSubject,
  id: number,
  grain: UsageGrain,
  from: number,
  to: number,
) => ({
  _id: {
    $gte: usageBucketId(subject, id, grain, from),
    $lte: usageBucketId(subject, id, grain, to),
  },
});

/** The last second a bucket id can name. */
export const LAST_SECOND = 10 ** TIME_DIGITS - 1;

/**
 * A token's cap as set by its owner (TokenCreated/TokenUpdated), with what the token had been
 * charged until then in the log's order: remaining at T = cap − (used at T − used_before).
 */
export interface LedgerTokenCapDocument {
  readonly _id: string;
  readonly token_id: number;
  readonly revision: number;
  /** Unix seconds. */
  readonly at: number;
  readonly cap: number;
  readonly unlimited: boolean;
  readonly used_before: number;
}
