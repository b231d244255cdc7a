import type { RequestRelayed } from '../usage/usage.events';
import type { Decider } from '../shared/decider';
import type {
  TaskEvent,
  TaskFacts,
  TaskFailureCause,
  TaskImported,
  TaskPlatform,
  TaskSnapshot,
  TaskSubmitted,
  TaskCharge,
} from './task.events';

type TaskPhase = 'open' | 'succeeded' | 'failed';

export interface TaskState extends TaskCharge {
  readonly exists: boolean;
  readonly phase: TaskPhase;
  /** The last snapshot recorded (the submission's fields until the first poll). */
  readonly snapshot: TaskSnapshot;
}

export const initialTaskState: TaskState = {
  exists: false,
  taskId: '',
  platform: 'midjourney',
  upstreamTaskId: '',
  userId: 0,
  tokenId: 0,
  channelId: 0,
  model: '',
  quota: 0,
  phase: 'open',
  snapshot: { status: '', progress: '0%', failReason: '', startTime: 0, finishTime: 0 },
};

export type TaskCommand =
  | {
      readonly type: 'SubmitTask';
      readonly task: TaskSubmitted['data'];
      /** The charge (its quota is the task's); absent when the submission is not charged. */
      readonly charge?: RequestRelayed['data'];
    }
  /** A task taken over from a new-api database (decides nothing on a stream holding a task). */
  | { readonly type: 'ImportTask'; readonly task: TaskImported['data'] }
  /** What the upstream answers now when polled. */
  | { readonly type: 'RecordTaskSnapshot'; readonly snapshot: TaskSnapshot }
  /** The gateway gives up on the task (timeout, channel gone). */
  | {
      readonly type: 'FailTask';
      readonly cause: Exclude<TaskFailureCause, 'upstream'>;
      readonly reason: string;
    };

type Emitted = TaskEvent | RequestRelayed;

const DONE = '100%';

/** new-api's failure test, for both pollers: a failure reason, or the FAILURE status. */
export function snapshotFailed(snapshot: TaskSnapshot): boolean {
  return snapshot.failReason !== '' || snapshot.status === 'FAILURE';
}

export function snapshotSucceeded(snapshot: TaskSnapshot): boolean {
  return snapshot.status === 'SUCCESS';
}

/** Phase a submission starts in: refused submissions and finished duplicates are terminal at once. */
function submittedPhase(task: TaskSubmitted['data']): TaskPhase {
  if (task.failReason !== '' || task.status === 'FAILURE') return 'failed';
  if (task.status === 'SUCCESS') return 'succeeded';
  return 'open';
}

function snapshotOf(task: TaskSubmitted['data']): TaskSnapshot {
  return {
    status: task.status,
    progress: task.progress,
    failReason: task.failReason,
    startTime: 0,
    finishTime: 0,
    imageUrl: task.imageUrl,
    description: task.description,
    ...(task.properties === undefined ? {} : { properties: task.properties }),
  };
}

/**
 * An imported task is open when the source's poller would still ask about it: neither SUCCESS nor
 * FAILURE, and its progress not "100%" (new-api's pollers skip rows at 100%).
 */
export function importedPhase(task: TaskImported['data']): TaskPhase {
  if (task.status === 'SUCCESS') return 'succeeded';
  if (task.status === 'FAILURE' || task.progress === DONE) return 'failed';
  return 'open';
}

/** The imported row as the upstream would say it: times back in the platform's unit. */
export function importedSnapshot(task: TaskImported['data']): TaskSnapshot {
  const unit =
    task.platform === 'suno' ? (ms: number) => Math.floor(ms / 1000) : (ms: number) => ms;
  return {
    status: task.status,
    progress: task.progress,
    failReason: task.failReason,
    startTime: unit(task.startTime),
    finishTime: unit(task.finishTime),
    imageUrl: task.imageUrl,
    promptEn: task.promptEn,
    description: task.description,
    state: task.state,
    ...(task.buttons === undefined ? {} : { buttons: task.buttons }),
    ...(task.properties === undefined ? {} : { properties: task.properties }),
    ...(task.data === undefined ? {} : { data: task.data }),
  };
}

/** The state a task's first event starts. */
function begun(d: TaskFacts, phase: TaskPhase, snapshot: TaskSnapshot): TaskState {
  return {
    exists: true,
    taskId: d.taskId,
    platform: d.platform,
    upstreamTaskId: d.upstreamTaskId,
    userId: d.userId,
    tokenId: d.tokenId,
    channelId: d.channelId,
    model: d.model,
    quota: d.quota,
    phase,
    snapshot,
  };
}

export function evolveTask(state: TaskState, event: Emitted): TaskState {
  switch (event.type) {
    case 'TaskSubmitted':
      return begun(event.data, submittedPhase(event.data), snapshotOf(event.data));
    case 'TaskImported':
      return begun(event.data, importedPhase(event.data), importedSnapshot(event.data));
    case 'TaskProgressed':
      return { ...state, snapshot: event.data.snapshot };
    case 'TaskSucceeded':
      return { ...state, phase: 'succeeded', snapshot: event.data.snapshot };
    case 'TaskFailed':
      return { ...state, phase: 'failed', snapshot: event.data.snapshot };
    case 'TaskRefunded':
    case 'RequestRelayed':
      return state;
  }
}

/** Fields whose change is worth an event (times alone are not). */
export function sameSnapshot(a: TaskSnapshot, b: TaskSnapshot): boolean {
  return (
    a.status === b.status &&
    a.progress === b.progress &&
    a.failReason === b.failReason &&
    (a.imageUrl ?? '') === (b.imageUrl ?? '') &&
    JSON.stringify(a.data ?? null) === JSON.stringify(b.data ?? null) &&
    JSON.stringify(a.buttons ?? null) === JSON.stringify(b.buttons ?? null)
  );
}

/** What every event after the submission names. */
function ref(state: TaskState): { taskId: string; userId: number; platform: TaskPlatform } {
  return { taskId: state.taskId, userId: state.userId, platform: state.platform };
}

function failure(
  state: TaskState,
  snapshot: TaskSnapshot,
  cause: TaskFailureCause,
  reason: string,
  nowMs: number,
): Emitted[] {
  const events: Emitted[] = [
    {
      type: 'TaskFailed',
      data: {
        ...ref(state),
        reason: reason.slice(0, 1000),
        cause,
        snapshot: { ...snapshot, status: 'FAILURE', progress: DONE, failReason: reason },
      },
    },
  ];
  // Everything the task charged goes back with the failure; a failed task decides nothing more.
  if (state.quota > 0)
    events.push({
      type: 'TaskRefunded',
      data: {
        taskId: state.taskId,
        platform: state.platform,
        upstreamTaskId: state.upstreamTaskId,
        userId: state.userId,
        tokenId: state.tokenId,
        channelId: state.channelId,
        model: state.model,
        quota: state.quota,
        refundedTime: Math.floor(nowMs / 1000),
      },
    });
  return events;
}

/**
 * One task per `task-<id>` stream: submitted once (with its charge), then what the upstream says
 * until it succeeds or fails. A failure refunds the whole charge in the same append, and a terminal
 * task decides nothing more, so a task is never charged twice or refunded twice.
 */
export const taskDecider: Decider<TaskCommand, TaskState, Emitted> = {
  initialState: initialTaskState,
  evolve: evolveTask,
  decide(command, state, { now }) {
    switch (command.type) {
      case 'SubmitTask': {
        // A retried submission (same task id) records nothing twice.
        if (state.exists) return [];
        const events: Emitted[] = [{ type: 'TaskSubmitted', data: command.task }];
        if (command.charge && command.task.quota > 0)
          events.push({ type: 'RequestRelayed', data: command.charge });
        return events;
      }
      case 'ImportTask':
        // A rerun of the import (or a stream some task holds already) records nothing.
        return state.exists ? [] : [{ type: 'TaskImported', data: command.task }];
      case 'RecordTaskSnapshot': {
        if (!state.exists || state.phase !== 'open') return [];
        const snapshot = command.snapshot;
        if (snapshotFailed(snapshot))
          return failure(state, snapshot, 'upstream', snapshot.failReason, now.getTime());
        if (snapshotSucceeded(snapshot))
          return [
            {
              type: 'TaskSucceeded',
              data: { ...ref(state), snapshot: { ...snapshot, progress: DONE } },
            },
          ];
        if (sameSnapshot(state.snapshot, snapshot)) return [];
        return [{ type: 'TaskProgressed', data: { ...ref(state), snapshot } }];
      }
      case 'FailTask': {
        if (!state.exists || state.phase !== 'open') return [];
        return failure(
          state,
          {
            ...state.snapshot,
            // The upstream's units: milliseconds for Midjourney, seconds for Suno.
            finishTime:
              state.platform === 'suno' ? Math.floor(now.getTime() / 1000) : now.getTime(),
          },
          command.cause,
          command.reason,
          now.getTime(),
        );
      }
    }
  },
};
