import type { MidjourneyRow, TaskRow } from '@tollgate/contracts';

/** The drawing log (platform midjourney): new-api's `midjourneys` table. */
export const MIDJOURNEYS = 'midjourneys';
/** The task log (platform suno): new-api's `tasks` table. */
export const SUNO_TASKS = 'suno_tasks';

/** What both collections keep besides the wire row. */
interface TaskKeys {
  /** The stream key `task-<taskId>` names (the relay's request id). */
  _id: string;
  /** Same as `_id`: the relay finds a task's stream by it. */
  task_key: string;
  user_id: number;
  channel_id: number;
  /** `$all` position of the last event applied: a replayed event (MongoDB standalone) changes nothing. */
  source_position: number;
}

/**
 * A Midjourney task in the read store: the wire row (image_url as the upstream gave it; the query
 * rewrites it when MjForwardUrlEnabled) keyed by the task's stream key.
 */
export type MidjourneyDocument = Omit<MidjourneyRow, 'channel_id'> & TaskKeys;

/** A Suno task in the read store. */
export type SunoTaskDocument = Omit<TaskRow, 'channel_id'> & TaskKeys;

/** The admin's row (with channel_id) or the owner's (without). */
export function toMidjourneyRow(doc: MidjourneyDocument, withChannel: boolean): MidjourneyRow {
  const { _id: _i, task_key: _k, source_position: _p, channel_id, ...row } = doc;
  return withChannel ? { ...row, channel_id } : row;
}

export function toTaskRow(doc: SunoTaskDocument, withChannel: boolean): TaskRow {
  const { _id: _i, task_key: _k, source_position: _p, channel_id, ...row } = doc;
  return withChannel ? { ...row, channel_id } : row;
}
