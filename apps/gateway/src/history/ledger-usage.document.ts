export const LEDGER_USAGE = 'ledger_usage';
export const LEDGER_TOKEN_CAPS = 'ledger_token_caps';

/**
 * Consumption summed per user or token and per hour (`grain` h) and per second (`grain` s): the
 * consumption up to an instant is Σ whole hours before it + Σ seconds of its hour, whatever the
 * log's length. Never cleared (unlike the log rows).
 */
export interface LedgerUsageDocument {
  readonly _id: string;
  /** u = user, t = token. */
  readonly subject: 'u' | 't';
  readonly subject_id: number;
  readonly grain: 'h' | 's';
  /** Unix seconds: the hour's first second, or the second. */
  readonly t: number;
  readonly quota: number;
  readonly count: number;
}

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
