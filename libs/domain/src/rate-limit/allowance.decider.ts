import type { Decider, DomainEvent } from '../shared/decider';

/**
 * A request-rate allowance shared by scale-out gateway processes (docs/scale-out.md, "Rate limits
 * across processes"). One stream per limited key and fixed window, `allowance-<key>-<window start>`;
 * a process takes a slice of the window's limit as an event appended with the stream's expected
 * revision, then counts requests against that slice in memory. The slices taken never add up to
 * more than the limit, so the processes together never admit more than it. Unused slices lapse with
 * their window: nothing is ever returned, and the stream is never written again once its window ended.
 */
export type AllowanceTaken = DomainEvent<'AllowanceTaken', { processId: string; amount: number }>;

export type AllowanceEvent = AllowanceTaken;

export interface TakeAllowance {
  readonly type: 'TakeAllowance';
  readonly processId: string;
  /** The slice asked for; less is granted when less is left of the window. */
  readonly want: number;
  /** The window's limit as the process knows it now (a lowered limit grants less from then on). */
  readonly limit: number;
}

export type AllowanceCommand = TakeAllowance;

export interface AllowanceState {
  /** Σ slices taken in this window, by every process. */
  readonly taken: number;
}

export const allowanceDecider: Decider<AllowanceCommand, AllowanceState, AllowanceEvent> = {
  initialState: { taken: 0 },
  evolve: (state, event) => ({ taken: state.taken + event.data.amount }),
  decide(command, state) {
    if (!isPositive(command.want) || !isPositive(command.limit)) return [];
    const granted = Math.min(command.want, command.limit - state.taken);
    if (granted <= 0) return [];
    return [{ type: 'AllowanceTaken', data: { processId: command.processId, amount: granted } }];
  },
};

/** True once the window has nothing left to grant under `limit`. */
export const allowanceExhausted = (state: AllowanceState, limit: number): boolean =>
  state.taken >= limit;

/** The stream of one key's allowance in the fixed window starting at `windowStart` (ms). */
export const allowanceStream = (key: string, windowStart: number): string =>
  `allowance-${key}-${windowStart}`;

/** The start (ms since the epoch) of the fixed window `now` falls in. */
export const windowStartOf = (now: number, windowMs: number): number =>
  Math.floor(now / windowMs) * windowMs;

/**
 * Slices per process a limit is cut into: small enough that a few processes share a small limit
 * (a 6 rpm limit goes one request at a time), big enough that a high one costs one append per many
 * requests (10 000 tpm: one per 625 tokens with 4 processes).
 */
const SLICES_PER_PROCESS = 4;

/** The slice a process takes of `limit` when about `processes` share it. */
export const allowanceSlice = (limit: number, processes: number): number =>
  Math.max(1, Math.ceil(limit / (SLICES_PER_PROCESS * Math.max(1, processes))));

const isPositive = (n: number): boolean => Number.isSafeInteger(n) && n > 0;
