import type { LogDto } from '@tollgate/contracts';

export const LOGS = 'logs';
/** Usernames as the log projection knows them (its own copy: projections run independently). */
export const LOG_USERS = 'log_users';

/** A log row; `admin_id` (type 3) is resolved to a name for admins only, at query time. */
export type LogDocument = { [K in keyof LogDto]: LogDto[K] } & { _id: string; admin_id: number };
export type LogUserDocument = { _id: string; username: string };
