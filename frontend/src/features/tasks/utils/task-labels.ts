/** Tag colours and label keys of the drawing and task logs (new-api's, spec's 绘图日志/任务日志). */

export const MJ_ACTION_COLORS = {
  IMAGINE: 'blue',
  UPSCALE: 'orange',
  VARIATION: 'grape',
  HIGH_VARIATION: 'grape',
  LOW_VARIATION: 'grape',
  PAN: 'cyan',
  DESCRIBE: 'yellow',
  BLEND: 'lime',
  UPLOAD: 'blue',
  SHORTEN: 'pink',
  REROLL: 'indigo',
  INPAINT: 'violet',
  ZOOM: 'teal',
  CUSTOM_ZOOM: 'teal',
  MODAL: 'green',
  SWAP_FACE: 'lime',
} as const;
export type MjAction = keyof typeof MJ_ACTION_COLORS;
export const isMjAction = (action: string): action is MjAction => action in MJ_ACTION_COLORS;

export const TASK_ACTION_COLORS = { MUSIC: 'grape', LYRICS: 'pink' } as const;
export type TaskAction = keyof typeof TASK_ACTION_COLORS;
export const isTaskAction = (action: string): action is TaskAction => action in TASK_ACTION_COLORS;
export const TASK_ACTIONS = Object.keys(TASK_ACTION_COLORS) as TaskAction[];

export const STATUS_COLORS = {
  NOT_START: 'gray',
  SUBMITTED: 'yellow',
  IN_PROGRESS: 'blue',
  FAILURE: 'red',
  SUCCESS: 'green',
  MODAL: 'orange',
  QUEUED: 'cyan',
  UNKNOWN: 'gray',
} as const;
export type TaskStatus = keyof typeof STATUS_COLORS;
export const isTaskStatus = (status: string): status is TaskStatus => status in STATUS_COLORS;
/** The statuses the task log filters by (the drawing log's MODAL never appears there). */
export const TASK_STATUSES: TaskStatus[] = [
  'NOT_START',
  'SUBMITTED',
  'QUEUED',
  'IN_PROGRESS',
  'SUCCESS',
  'FAILURE',
  'UNKNOWN',
];

/** midjourney-proxy's submit codes. */
export const SUBMIT_CODES = {
  1: { key: 'submitted', color: 'green' },
  21: { key: 'waiting', color: 'lime' },
  22: { key: 'duplicate', color: 'orange' },
  0: { key: 'notSubmitted', color: 'yellow' },
} as const;

/** A task that ran longer than this shows its duration in red. */
export const SLOW_SECONDS = 60;

/** "45%" → 45 (0 when the upstream sent nothing usable), clamped to 0–100. */
export function progressPercent(progress: string): number {
  const value = Number.parseFloat(progress);
  return Number.isFinite(value) ? Math.min(100, Math.max(0, value)) : 0;
}

/** A Suno clip of the task's `data` that can be played. */
export interface AudioClip {
  id: string;
  title: string;
  audio_url: string;
}

/** The clips of a task row's `data` (an array, or its JSON text) that have an audio address. */
export function audioClips(data: unknown): AudioClip[] {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value) as unknown;
    } catch {
      return [];
    }
  }
  if (!Array.isArray(value)) return [];
  return value.flatMap((clip: unknown, index) => {
    if (typeof clip !== 'object' || clip === null) return [];
    const { id, title, audio_url } = clip as Record<string, unknown>;
    if (typeof audio_url !== 'string' || audio_url === '') return [];
    return [
      {
        id: typeof id === 'string' && id ? id : String(index),
        title: typeof title === 'string' ? title : '',
        audio_url,
      },
    ];
  });
}

/** A row for the JSON detail dialog: `data` shown as structure when it came as JSON text. */
export function prettyJson(row: object): string {
  const copy: Record<string, unknown> = { ...row };
  if (typeof copy.data === 'string') {
    try {
      copy.data = JSON.parse(copy.data) as unknown;
    } catch {
      // Not JSON: shown as the text it is.
    }
  }
  return JSON.stringify(copy, null, 2);
}
