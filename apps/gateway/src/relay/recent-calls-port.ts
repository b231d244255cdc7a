import type { Position } from '@tollgate/event-store';

/** Where the recent calls begin in `$all` (the log read model knows: logs/recent-call-rows.ts). */
export interface RecentCallsPort {
  /**
   * The position of the newest event not to read, so that reading `$all` on from it gives at most
   * `maxCalls` calls ended since `sinceMs` (and what the read model has not caught up with yet);
   * 'start' when nothing is older.
   */
  startAfter(sinceMs: number, maxCalls: number): Promise<Position | 'start'>;
}

export const RECENT_CALLS_PORT = Symbol('RECENT_CALLS_PORT');
