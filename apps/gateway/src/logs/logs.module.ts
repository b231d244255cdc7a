import { Module } from '@nestjs/common';
import { ClearLogsHandler } from './commands/clear-logs.handler';
import { SearchSelfLogsHandler, TokenLogsHandler } from './queries/log-lookups.handler';
import { ListLogsHandler, LogStatHandler } from './queries/log-queries.handler';
import { LogsController } from './logs.controller';

/** The log: list, search, a token's rows, statistics and clearing (the rows come from the logs projection). */
@Module({
  controllers: [LogsController],
  providers: [
    ListLogsHandler,
    LogStatHandler,
    SearchSelfLogsHandler,
    TokenLogsHandler,
    ClearLogsHandler,
  ],
})
export class LogsModule {}
