/**
 * The drawing log (绘图日志, GET /api/mj/ and /api/mj/self) and the task log (任务日志, GET /api/task/
 * and /api/task/self): new-api's `midjourneys` and `tasks` rows, 10 per page (`p` 0-based), newest
 * first, a bare array in the envelope. `refund_quota` (quota given back when the task failed) is
 * Tollgate's addition.
 */
export interface MidjourneyRow {
  /** Stable row id (the submission event's log position); newest = highest. */
  id: number;
  code: number;
  user_id: number;
  action: string;
  mj_id: string;
  prompt: string;
  prompt_en: string;
  description: string;
  state: string;
  /** Unix milliseconds, like start_time and finish_time. */
  submit_time: number;
  start_time: number;
  finish_time: number;
  /** `/mj/image/<mj_id>` when MjForwardUrlEnabled, else the upstream's address. */
  image_url: string;
  status: string;
  progress: string;
  fail_reason: string;
  /** Omitted from /api/mj/self rows. */
  channel_id?: number;
  quota: number;
  refund_quota: number;
  /** JSON text of midjourney-proxy's buttons. */
  buttons: string;
  /** JSON text of midjourney-proxy's properties. */
  properties: string;
}

export interface TaskRow {
  id: number;
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
  task_id: string;
  platform: 'suno';
  user_id: number;
  /** Omitted from /api/task/self rows. */
  channel_id?: number;
  quota: number;
  refund_quota: number;
  action: string;
  status: string;
  fail_reason: string;
  /** Unix seconds, like start_time and finish_time. */
  submit_time: number;
  start_time: number;
  finish_time: number;
  progress: string;
  /** The upstream's clips (Suno: id, status, title, audio_url, image_url, video_url, metadata). */
  data: unknown;
}

/** Query of the drawing log: `start_timestamp`/`end_timestamp` in milliseconds. */
export interface MidjourneyQuery {
  p?: number;
  channel_id?: number;
  mj_id?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

/** Query of the task log: timestamps in seconds. */
export interface TaskQuery {
  p?: number;
  channel_id?: number;
  platform?: string;
  task_id?: string;
  status?: string;
  action?: string;
  start_timestamp?: number;
  end_timestamp?: number;
}

export const TASK_PAGE_SIZE = 10;
