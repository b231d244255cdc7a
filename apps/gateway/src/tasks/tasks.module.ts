import { Inject, Module } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { RelayModule } from '../relay/relay.module';
import { TASK_RELAY_PORT, type TaskRelayPort } from '../relay/task-relay-port';
import { MjImageProxy } from './mj-image';
import { MjRelay } from './mj-relay';
import { MjSubmitPlatform } from './mj-submit';
import { TaskLogModule } from './read/task-log.module';
import { SunoRelay } from './suno-relay';
import { SunoSubmitPlatform } from './suno-submit';
import { TaskDirectory } from './task-directory';
import { TaskPollController } from './task-poll.controller';
import { TaskPollHints } from './task-poll-hints';
import { TaskPoller } from './task-poller';
import { TaskRoutes } from './task-routes';
import { TaskSubmitPipeline } from './task-submit-pipeline';
import { TaskSubmitter } from './task-submitter';
import { TaskUpstream } from './task-upstream';
import { FailTaskHandler, RecordTaskSnapshotHandler, SubmitTaskHandler } from './task.commands';

/**
 * The task relays (Midjourney under /mj, /mj-fast/mj, …; Suno under /suno): their routes on the
 * relay's front, the submit pipeline, the poller that records what the tasks became, the task
 * directory (the hot cache of open tasks) and the task logs' read side. The relay is reached
 * through TASK_RELAY_PORT only (key admission, routing, balance, upstream pools).
 */
@Module({
  imports: [RelayModule, TaskLogModule],
  controllers: [TaskPollController],
  providers: [
    TaskDirectory,
    TaskUpstream,
    TaskSubmitter,
    TaskSubmitPipeline,
    MjSubmitPlatform,
    SunoSubmitPlatform,
    MjRelay,
    SunoRelay,
    MjImageProxy,
    TaskRoutes,
    TaskPoller,
    TaskPollHints,
    SubmitTaskHandler,
    RecordTaskSnapshotHandler,
    FailTaskHandler,
  ],
})
export class TasksModule {
  // Both while the app's providers are built: the feed replays and the relay registers its routes
  // (with these) only afterwards, at bootstrap and module init.
  constructor(
    feed: CacheFeed,
    directory: TaskDirectory,
    routes: TaskRoutes,
    @Inject(TASK_RELAY_PORT) relay: TaskRelayPort,
  ) {
    feed.register(directory);
    relay.addRoutes((scope) => routes.register(scope));
  }
}
