import { Inject, Injectable, Logger } from '@nestjs/common';
import { FixedWindows } from '../auth/fixed-windows';
import { TaskDirectory } from './task-directory';
import { TaskPoller } from './task-poller';

/** A task is polled for callbacks at most once per this long; hints in between are dropped. */
export const TASK_HINT_INTERVAL_MS = 10_000;

/**
 * Task callbacks (midjourney-proxy's `/mj/notify`) are hints, never outcomes: whoever sends one
 * holds only a user's key, so what it says of a task (status, progress, image, failure) is not
 * believed. A hint makes the poller ask the task's own channel now; that answer is recorded as any
 * poll's. Each task is polled for hints at most once per TASK_HINT_INTERVAL_MS (a flood of
 * callbacks is at most one upstream call per task per interval), and only while it is open.
 */
@Injectable()
export class TaskPollHints {
  private readonly logger = new Logger(TaskPollHints.name);
  private readonly recent = new FixedWindows({ max: 1, windowMs: TASK_HINT_INTERVAL_MS });

  constructor(
    private readonly directory: TaskDirectory,
    @Inject(TaskPoller) private readonly poller: Pick<TaskPoller, 'pollTasks'>,
  ) {}

  /**
   * Polls the open ones of these tasks now unless a hint polled them within the interval; answers
   * when that poll is done. Never throws: the caller's answer does not depend on the upstream.
   */
  async hint(taskIds: readonly string[], now = Date.now()): Promise<void> {
    const due = taskIds.filter((id) => this.directory.isOpen(id) && this.recent.hit(id, now));
    if (due.length === 0) return;
    try {
      await this.poller.pollTasks(due, now);
    } catch (error) {
      this.logger.warn(`hinted poll of ${due.length} task(s): ${String(error)}`);
    }
  }
}
