import type { Provider } from '@nestjs/common';
import { MjImageProxy } from './mj-image';
import { MjRelay } from './mj-relay';
import { SunoRelay } from './suno-relay';
import { TaskPollHints } from './task-poll-hints';
import { TaskPoller } from './task-poller';
import { TaskRoutes } from './task-routes';
import { TaskSubmitter } from './task-submitter';
import { TaskUpstream } from './task-upstream';
import { FailTaskHandler, RecordTaskSnapshotHandler, SubmitTaskHandler } from './task.commands';

/**
 * The Midjourney and Suno relays live in the relay module (they share its front, admission,
 * settings, routing and balance ports); the task directory is the billing-free hot cache they read.
 */
export const TASK_RELAY_PROVIDERS: Provider[] = [
  TaskUpstream,
  TaskSubmitter,
  MjRelay,
  SunoRelay,
  MjImageProxy,
  TaskRoutes,
  TaskPoller,
  TaskPollHints,
  SubmitTaskHandler,
  RecordTaskSnapshotHandler,
  FailTaskHandler,
];
