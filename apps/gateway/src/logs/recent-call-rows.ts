import { Inject, Injectable } from '@nestjs/common';
import { LogType } from '@tollgate/contracts';
import type { Position } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../infrastructure/injection-tokens';
import type { RecentCallsPort } from '../relay/recent-calls-port';
import { logStore } from './log-store';

const CALL_ROWS = [LogType.Consume, LogType.Error];

/** The log rows' answer to where the recent calls begin (a row's id is its event's position). */
@Injectable()
export class RecentCallRows implements RecentCallsPort {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  /** The row past the last `maxCalls` call rows of the window, else the newest row before it. */
  async startAfter(sinceMs: number, maxCalls: number): Promise<Position | 'start'> {
    const logs = logStore(this.readStore);
    const since = Math.floor(sinceMs / 1000);
    const [past] = await logs.find(
      { type: { $in: CALL_ROWS }, created_at: { $gte: since } },
      { sort: { id: -1 }, skip: maxCalls, limit: 1 },
    );
    const [before] = past
      ? [past]
      : await logs.find({ created_at: { $lt: since } }, { sort: { id: -1 }, limit: 1 });
    if (!before) return 'start';
    // The row id is the event's `$all` commit position (the embedded store's prepare is the same).
    const at = BigInt(before.id);
    return { commit: at, prepare: at };
  }
}
