import type { Decider, DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';

/**
 * One row of a one-api / new-api log, as it was (its own time, user, token, model, quota): a
 * history row of the read model, not a balance change (the imported balances already hold it).
 */
export interface ImportedLog {
  /** 0 unknown, 1 top-up, 2 consumption, 3 admin, 4 system. */
  readonly type: number;
  /** Unix seconds, the source's. */
  readonly createdAt: number;
  readonly userId: number;
  /** The name the row was written with (the user may since have been renamed or deleted). */
  readonly username: string;
  readonly tokenName: string;
  readonly tokenId: number;
  readonly modelName: string;
  readonly quota: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Seconds (one-api's `elapsed_time` milliseconds rounded). */
  readonly useTime: number;
  readonly isStream: boolean;
  readonly channelId: number;
  readonly group: string;
  readonly content: string;
  /** new-api's `other` JSON text, '' when none. */
  readonly other: string;
  /** one-api's `request_id`, '' when none. */
  readonly requestId: string;
}

export type LogImported = DomainEvent<
  'LogImported',
  ImportedLog & { readonly source: ImportSource }
>;
export const LOG_IMPORT_EVENT_TYPES: readonly LogImported['type'][] = ['LogImported'];
/** One stream holds the imported log, in the source's id order (resumed from its last event). */
export const IMPORTED_LOGS_STREAM = 'imported-logs';

export type ImportLogs = {
  readonly type: 'ImportLogs';
  readonly logs: ReadonlyArray<ImportedLog & { readonly source: ImportSource }>;
};

/**
 * The imported log, a batch at a time in the source's id order: rows at or below the last
 * imported source id were imported by an earlier run and decide nothing (a resumed run after a
 * kill, or the same source again).
 */
export const logImportDecider: Decider<ImportLogs, { lastSourceId: number }, LogImported> = {
  initialState: { lastSourceId: 0 },
  evolve: (state, event) => ({
    lastSourceId: Math.max(state.lastSourceId, event.data.source.rowId),
  }),
  snapshotVersion: 1,
  decide(command, state) {
    const events: LogImported[] = [];
    let last = state.lastSourceId;
    for (const log of command.logs) {
      if (log.source.rowId <= last) continue;
      last = log.source.rowId;
      events.push({ type: 'LogImported', data: log });
    }
    return events;
  },
};
