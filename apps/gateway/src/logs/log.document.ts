import { LogType, type LogDto } from '@tollgate/contracts';

export const LOGS = 'logs';
/** Usernames as the log projection knows them (its own copy: projections run independently). */
export const LOG_USERS = 'log_users';

/**
 * A log row as the projection builds it and the log routes answer it (stored-log.ts packs it);
 * `admin_id` (type 3) is resolved to a name for admins only, at query time, and so is
 * `channel_name` (a renamed channel shows its new name, as new-api's join does).
 */
export type LogRow = { [K in keyof RowFields]: RowFields[K] } & { admin_id: number };
type RowFields = Omit<LogDto, 'channel_name'>;

/**
 * A row as built, `other` still the object its text is `JSON.stringify` of: the projection stores
 * it without making the text (stored-log.ts packs the object).
 */
export type LogRowParts = {
  readonly row: Omit<LogRow, 'other'>;
  readonly other: Readonly<Record<string, unknown>>;
};
export type LogUserDocument = { _id: string; username: string };

/**
 * Running sums of the consumption rows (type 2), kept by the logs projection so the unfiltered log
 * stat reads one document instead of summing a million rows: `all`, and `user:<id>` per user.
 */
export const LOG_TOTALS = 'log_totals';
export const ALL_TOTALS = 'all';
export const userTotalsId = (userId: number): string => `user:${userId}`;
export type LogTotalsDocument = { _id: string; quota: number; source_position: number };

/**
 * A task refund's row is type 4 (system) with its model named: the other system rows have none
 * (a stored row leaves an empty name out, so `$gt ''`, not `$ne ''`, which a missing field matches).
 * The log clear and the filtered stat find the refund rows by this (consumption given back).
 */
export const REFUND_ROWS = { type: LogType.System, model_name: { $gt: '' } } as const;

/**
 * Where the log begins after retention: `at` (unix seconds) is the end of the latest archived
 * hour, before which the relayed calls' rows were dropped with their receipts (UsageArchived).
 */
export const LOG_RETENTION = 'log_retention';
export const RETAINED_FROM = 'retained_from';
export type LogRetentionDocument = { _id: string; at: number };
