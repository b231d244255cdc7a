import { Injectable } from '@nestjs/common';
import {
  evolveTask,
  initialTaskState,
  TASK_EVENT_TYPES,
  type TaskEvent,
  type TaskPlatform,
  type TaskState,
} from '@tollgate/domain';
import type { RecordedEvent } from '@tollgate/event-store';
import type { HotCache } from '../infrastructure/hot-caches/hot-cache';

/** What the relay keeps of a finished task: enough to route a follow-up and check its owner. */
export interface TaskEntry {
  readonly taskId: string;
  readonly platform: TaskPlatform;
  readonly upstreamTaskId: string;
  readonly userId: number;
  readonly channelId: number;
  readonly status: string;
  /** Unix milliseconds. */
  readonly submitTime: number;
}

/**
 * The tasks in memory, fed by the process's cache subscription: every open task in full (what the
 * poller asks the upstreams about, rebuilt from the log at start-up so polling resumes after a
 * restart), and a small entry per task by its upstream id (follow-ups go to the origin's channel,
 * only for its owner). Nothing here is read from storage on a request.
 */
@Injectable()
export class TaskDirectory implements HotCache {
  readonly name = 'task-directory';
  readonly eventTypes: readonly string[] = TASK_EVENT_TYPES;

  private readonly open = new Map<string, TaskState & { submitTime: number }>();
  private readonly entries = new Map<string, TaskEntry>();
  /** `<platform>:<upstream id>` → task ids, oldest first (a code-21 duplicate shares an id). */
  private readonly byUpstream = new Map<string, string[]>();

  apply(events: readonly RecordedEvent[]): void {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as TaskEvent;
      const taskId = event.data.taskId;
      if (event.type === 'TaskSubmitted' || event.type === 'TaskImported') {
        const state = evolveTask(initialTaskState, event);
        const entry: TaskEntry = {
          taskId,
          platform: state.platform,
          upstreamTaskId: state.upstreamTaskId,
          userId: state.userId,
          channelId: state.channelId,
          status: state.snapshot.status,
          submitTime: event.data.submitTime,
        };
        if (this.entries.has(taskId)) continue;
        this.entries.set(taskId, entry);
        if (state.upstreamTaskId !== '') {
          const key = upstreamKey(state.platform, state.upstreamTaskId);
          const ids = this.byUpstream.get(key);
          if (ids) ids.push(taskId);
          else this.byUpstream.set(key, [taskId]);
        }
        if (state.phase === 'open')
          this.open.set(taskId, { ...state, submitTime: openSince(event) });
        continue;
      }
      const current = this.open.get(taskId);
      const entry = this.entries.get(taskId);
      if (!current || !entry) continue;
      const next = evolveTask(current, event);
      this.entries.set(taskId, { ...entry, status: next.snapshot.status });
      if (next.phase === 'open') this.open.set(taskId, { ...next, submitTime: current.submitTime });
      else this.open.delete(taskId);
    }
  }

  /** The open tasks, by channel (the poller's batches). */
  openByChannel(): Map<number, Array<TaskState & { submitTime: number }>> {
    const out = new Map<number, Array<TaskState & { submitTime: number }>>();
    for (const task of this.open.values()) {
      const list = out.get(task.channelId);
      if (list) list.push(task);
      else out.set(task.channelId, [task]);
    }
    return out;
  }

  /** The user's newest task with this upstream id (another user's is never returned). */
  ofOwner(platform: TaskPlatform, upstreamTaskId: string, userId: number): TaskEntry | undefined {
    const ids = this.byUpstream.get(upstreamKey(platform, upstreamTaskId)) ?? [];
    for (let i = ids.length - 1; i >= 0; i--) {
      const entry = this.entries.get(ids[i] ?? '');
      if (entry && entry.userId === userId) return entry;
    }
    return undefined;
  }

  /** Every task with this upstream id (a poll answer updates each; a notify hints at each). */
  withUpstreamId(platform: TaskPlatform, upstreamTaskId: string): TaskEntry[] {
    const ids = this.byUpstream.get(upstreamKey(platform, upstreamTaskId)) ?? [];
    return ids.flatMap((id) => {
      const entry = this.entries.get(id);
      return entry ? [entry] : [];
    });
  }

  isOpen(taskId: string): boolean {
    return this.open.has(taskId);
  }

  /** The task in full while it is open (what a poll of it needs). */
  openTask(taskId: string): (TaskState & { submitTime: number }) | undefined {
    return this.open.get(taskId);
  }
}

/**
 * When an open task's timeout starts counting: its submission; for an imported task, the import
 * (it was not polled while the source was stopped, so it is given the whole limit again).
 */
function openSince(event: TaskEvent): number {
  if (event.type === 'TaskImported') {
    const importedAt = Date.parse(event.data.source.importedAt);
    return Math.max(event.data.submitTime, Number.isFinite(importedAt) ? importedAt : 0);
  }
  return event.type === 'TaskSubmitted' ? event.data.submitTime : 0;
}

const upstreamKey = (platform: TaskPlatform, id: string): string => `${platform}:${id}`;
