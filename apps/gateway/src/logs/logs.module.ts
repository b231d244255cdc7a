import { Module } from '@nestjs/common';
import { ClearLogsHandler } from './commands/clear-logs.handler';
import { ListLogsHandler, LogStatHandler } from './queries/log-queries.handler';
import { LogsController } from './logs.controller';

/** The log: list, statistics and clearing (the rows come from the logs projection). */
@Module({
  controllers: [LogsController],
  providers: [ListLogsHandler, LogStatHandler, ClearLogsHandler],
})
export class LogsModule {}
