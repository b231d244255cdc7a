import { Module } from '@nestjs/common';
import {
  ListMidjourneyTasksHandler,
  ListSunoTasksHandler,
} from './queries/task-log-queries.handler';
import { TaskLogController } from './task-log.controller';
import { TaskLogReader } from './task-log.reader';

/**
 * The task logs' read side: the console's drawing and task logs, and the reader the relay's fetch
 * and image routes use (the rows come from the task-log projection).
 */
@Module({
  controllers: [TaskLogController],
  providers: [ListMidjourneyTasksHandler, ListSunoTasksHandler, TaskLogReader],
  exports: [TaskLogReader],
})
export class TaskLogModule {}
