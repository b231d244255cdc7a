import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/**
 * Root cleared the log up to a time. The read model forgets those rows; the history keeps who
 * cleared what (one `logs` stream: a few events a year).
 */
export type LogsCleared = DomainEvent<
  'LogsCleared',
  {
    /** Rows created strictly before this unix second are dropped. */
    readonly before: number;
    /** How many rows the read model held before that time when root asked. */
    readonly count: number;
  }
>;

export type LogEvent = LogsCleared;
export const LOG_EVENT_TYPES: readonly LogEvent['type'][] = ['LogsCleared'];
export const LOGS_STREAM = 'logs';

export type ClearLogs = {
  readonly type: 'ClearLogs';
  readonly before: number;
  readonly count: number;
};

export const logDecider: Decider<ClearLogs, { clears: number }, LogEvent> = {
  initialState: { clears: 0 },
  evolve: (state) => ({ clears: state.clears + 1 }),
  snapshotVersion: 1,
  decide(command) {
    if (!Number.isSafeInteger(command.before) || command.before <= 0)
      throw new DomainError('log.target_timestamp_invalid');
    return [{ type: 'LogsCleared', data: { before: command.before, count: command.count } }];
  },
};
