import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';

/** The two asynchronous task relays (new-api's `midjourneys` and `tasks` tables). */
export type TaskPlatform = 'midjourney' | 'suno';

/**
 * What an upstream says about a task, as it said it (midjourney-proxy's task DTO, Suno's TaskDto).
 * Times are the upstream's own units: milliseconds for Midjourney, seconds for Suno.
 */
export interface TaskSnapshot {
  readonly status: string;
  /** "0%" … "100%". */
  readonly progress: string;
  readonly failReason: string;
  readonly startTime: number;
  readonly finishTime: number;
  /** Midjourney: the upstream's image address (never shown as is when MjForwardUrlEnabled). */
  readonly imageUrl?: string;
  readonly promptEn?: string;
  readonly description?: string;
  readonly state?: string;
  /** Midjourney's follow-up buttons (`customId`, `label`, …). */
  readonly buttons?: unknown;
  readonly properties?: unknown;
  /** Suno: the clips (audio, image, video addresses, metadata). */
  readonly data?: unknown;
}

/** What a task's first event says of it, submitted here or taken over from new-api. */
export interface TaskFacts {
  /** The stream key: `task-<taskId>` (the relay's request id; `newapi-mj-<row id>` when imported). */
  readonly taskId: string;
  readonly platform: TaskPlatform;
  /** The upstream's id, the one the client sees (mj_id / task_id); '' when refused. */
  readonly upstreamTaskId: string;
  readonly userId: number;
  /** 0 when submitted without a token (always 0 imported: new-api does not record it). */
  readonly tokenId: number;
  readonly channelId: number;
  /** IMAGINE, UPSCALE, …, MUSIC, LYRICS. */
  readonly action: string;
  /** The billed model name (`mj_imagine`, `swap_face`, `suno_music`, …). */
  readonly model: string;
  /** Midjourney's submit code as recorded (21 with a finished task is recorded as 1; 0 for Suno). */
  readonly code: number;
  readonly prompt: string;
  readonly description: string;
  /** Unix milliseconds (imported Suno rows: the source's seconds × 1000); 0 = unknown. */
  readonly submitTime: number;
  readonly status: string;
  readonly progress: string;
  readonly failReason: string;
  /** Quota charged (here by the receipt appended with the event, or by the source); 0 when none. */
  readonly quota: number;
  readonly imageUrl: string;
  readonly properties?: unknown;
}

/** Which task charged whom, through which channel, and how much: what a refund gives back. */
export type TaskCharge = Pick<
  TaskFacts,
  'taskId' | 'platform' | 'upstreamTaskId' | 'userId' | 'tokenId' | 'channelId' | 'model' | 'quota'
>;

/**
 * A task was accepted by the upstream (or refused by it: Midjourney records every submission). The
 * charge, when there is one, is the RequestRelayed receipt appended with this event in the same
 * append, so a task is never recorded without its charge or charged without its record.
 */
export type TaskSubmitted = DomainEvent<
  'TaskSubmitted',
  TaskFacts & {
    /** The upstream id of the task a follow-up acts on; '' for a new task. */
    readonly originTaskId: string;
  }
>;

/**
 * A task taken over from a new-api database (`midjourneys` or `tasks` row), as the source had it:
 * charged there already (its charge is inside the imported balances, so nothing is charged here),
 * finished or still open. An open one is polled again at its channel; if it then fails, its quota is
 * refunded like a live task's. Times are Unix milliseconds, whatever the source's unit.
 */
export type TaskImported = DomainEvent<
  'TaskImported',
  TaskFacts & {
    readonly startTime: number;
    readonly finishTime: number;
    readonly promptEn: string;
    readonly state: string;
    /** Parsed JSON columns; absent when the source had none (or it did not parse). */
    readonly buttons?: unknown;
    readonly data?: unknown;
    /** Suno rows: the source's created_at / updated_at (Unix seconds). */
    readonly createdAt?: number;
    readonly updatedAt?: number;
    readonly source: ImportSource;
  }
>;

/**
 * What every event after the submission names: the task, its owner (the realtime pushes' audience)
 * and its platform (the task-log collection its row is in).
 */
interface TaskRef {
  readonly taskId: string;
  readonly userId: number;
  readonly platform: TaskPlatform;
}

/** The upstream reported a change on an open task, answering a poll. */
export type TaskProgressed = DomainEvent<
  'TaskProgressed',
  TaskRef & { readonly snapshot: TaskSnapshot }
>;

/** The upstream finished the task: the image, buttons or clips are in the snapshot. */
export type TaskSucceeded = DomainEvent<
  'TaskSucceeded',
  TaskRef & { readonly snapshot: TaskSnapshot }
>;

/** The task failed upstream, timed out, or lost its channel. Terminal. */
export type TaskFailed = DomainEvent<
  'TaskFailed',
  TaskRef & {
    readonly reason: string;
    /** 'upstream', 'timeout' or 'channel_missing'. */
    readonly cause: TaskFailureCause;
    readonly snapshot: TaskSnapshot;
  }
>;

export type TaskFailureCause = 'upstream' | 'timeout' | 'channel_missing';

/**
 * Everything the task charged is given back: the user's balance, the token's remaining quota and the
 * usage counters (user, token, channel). Appended with the TaskFailed it follows, once.
 */
export type TaskRefunded = DomainEvent<
  'TaskRefunded',
  TaskCharge & {
    /** Unix seconds. */
    readonly refundedTime: number;
  }
>;

export type TaskEvent =
  TaskSubmitted | TaskImported | TaskProgressed | TaskSucceeded | TaskFailed | TaskRefunded;

export const TASK_EVENT_TYPES: readonly TaskEvent['type'][] = [
  'TaskSubmitted',
  'TaskImported',
  'TaskProgressed',
  'TaskSucceeded',
  'TaskFailed',
  'TaskRefunded',
];

/** What the balance book and the counters' projections fold besides the receipts. */
export const TASK_REFUND_EVENT_TYPES: readonly TaskRefunded['type'][] = ['TaskRefunded'];

export const taskStreamId = (taskId: string): string => `task-${taskId}`;

/** new-api's refund wording for the system log row. */
export function taskRefundLogText(refund: TaskRefunded['data']): string {
  return refund.platform === 'midjourney'
    ? `构图失败 ${refund.upstreamTaskId}，补偿 ${refund.quota} 额度`
    : `异步任务执行失败 ${refund.upstreamTaskId}，补偿 ${refund.quota} 额度`;
}
