import { Module } from '@nestjs/common';
import { ClearLogsHandler } from './commands/clear-logs.handler';
import { SearchSelfLogsHandler, TokenLogsHandler } from './queries/log-lookups.handler';
import { ListLogsHandler, LogStatHandler } from './queries/log-queries.handler';
import { RECENT_CALLS_PORT } from '../relay/recent-calls-port';
import { LogsController } from './logs.controller';
import { RecentCallRows } from './recent-call-rows';

/** The log: list, search, a token's rows, statistics and clearing (the rows come from the logs projection). */
@Module({
  controllers: [LogsController],
  providers: [
    ListLogsHandler,
    LogStatHandler,
    SearchSelfLogsHandler,
    TokenLogsHandler,
    ClearLogsHandler,
    // Where adaptive routing's start-up seeding begins reading the receipts.
    { provide: RECENT_CALLS_PORT, useClass: RecentCallRows },
  ],
  exports: [RECENT_CALLS_PORT],
})
export class LogsModule {}
