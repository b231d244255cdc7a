import type { RecordedEvent } from '@tollgate/event-store';
import type { TaskRefunded, TaskSubmitted } from '@tollgate/domain';

/** Open tasks remembered at most (a refused submission never finishes: the oldest are forgotten). */
export const MAX_REMEMBERED_TASKS = 10_000;

/**
 * Who owns a task, for the realtime pushes: TaskProgressed, TaskSucceeded and TaskFailed carry only
 * the task id. The owner is learnt from the TaskSubmitted (and TaskRefunded) the same projection
 * batches deliver, kept while the task is open and forgotten when it ends. It is a hint only: after
 * a restart the tasks submitted before it are unknown (`undefined`), and the caller then pushes the
 * topic to every console (a topic carries no data).
 */
export class TaskOwners {
  private readonly owners = new Map<string, number>();

  constructor(private readonly max = MAX_REMEMBERED_TASKS) {}

  /** The owner of the event's task, remembering or forgetting it as the task opens or ends. */
  ownerOf(event: RecordedEvent): number | undefined {
    const data = event.data as { taskId?: unknown; userId?: unknown };
    if (typeof data.taskId !== 'string') return undefined;
    const known = this.owners.get(data.taskId);
    switch (event.type) {
      case 'TaskSubmitted': {
        const d = event.data as TaskSubmitted['data'];
        // A submission the upstream refused is over at once: nothing more will name it.
        if (d.failReason === '' && d.status !== 'FAILURE') this.remember(d.taskId, d.userId);
        return d.userId;
      }
      case 'TaskRefunded':
        this.owners.delete(data.taskId);
        return (event.data as TaskRefunded['data']).userId;
      case 'TaskSucceeded':
      case 'TaskFailed':
        this.owners.delete(data.taskId);
        return known;
      default:
        return known;
    }
  }

  get size(): number {
    return this.owners.size;
  }

  private remember(taskId: string, userId: number): void {
    this.owners.delete(taskId);
    this.owners.set(taskId, userId);
    if (this.owners.size > this.max) {
      const oldest = this.owners.keys().next().value;
      if (oldest !== undefined) this.owners.delete(oldest);
    }
  }
}

/** The one the realtime pushes use (the projection runner delivers every batch to them in order). */
export const taskOwners = new TaskOwners();
