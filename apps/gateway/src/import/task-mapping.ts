import type { TaskImported } from '@tollgate/domain';
import { mjModelName, sunoModelName } from '@tollgate/relay';
import type { Mapped, ReportItem } from './import-mapping';
import { int, present, rowIdOf, text } from './row-values';

type Row = Record<string, unknown>;

/** A midjourneys / tasks row as TaskImported facts (nothing secret in a task). */
export type TaskFacts = TaskImported['data'];
export interface MappedTask {
  readonly task: TaskFacts;
  readonly items: ReportItem[];
}

type At = { readonly table: string; readonly rowId: number };

/** The stream keys of imported tasks: apart from the relay's request ids. */
export const importedMjTaskId = (rowId: number): string => `newapi-mj-${rowId}`;
export const importedSunoTaskId = (rowId: number): string => `newapi-task-${rowId}`;

/**
 * A JSON column: text that parses (SQLite, PostgreSQL text), or a value a driver parsed already
 * (MySQL / PostgreSQL json). Empty or null → absent; text that does not parse → dropped, reported.
 */
function jsonColumn(value: unknown, field: string, at: At, items: ReportItem[]): unknown {
  if (!present(value)) return undefined;
  if (Buffer.isBuffer(value)) return jsonColumn(value.toString('utf8'), field, at, items);
  if (typeof value !== 'string') return typeof value === 'object' ? value : undefined;
  const raw = value.trim();
  if (raw === '' || raw === 'null') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    items.push({ ...at, action: 'dropped', field, reason: 'not valid JSON' });
    return undefined;
  }
}

/** A quota the source charged: a negative one comes in as 0, reported. */
function chargedQuota(value: unknown, at: At, items: ReportItem[]): number {
  const quota = int(value);
  if (quota >= 0) return quota;
  items.push({
    ...at,
    action: 'changed',
    field: 'quota',
    reason: `${quota} is negative: imported as 0`,
  });
  return 0;
}

/** A time that must not be negative (0 = unknown). */
const time = (value: unknown): number => Math.max(0, int(value));

/**
 * One `midjourneys` row (times in milliseconds, as the event's). An empty mj_id is skipped: nothing
 * can be asked about it (new-api's poller marks such rows failed without a refund).
 */
export function mapMidjourneyRow(row: Row, importedAt: string): Mapped<MappedTask> {
  const id = rowIdOf('midjourneys', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  const mjId = text(row['mj_id']);
  if (mjId === '')
    return {
      skipped: { ...at, action: 'skipped', reason: 'empty mj_id: the upstream never took it' },
    };
  const items: ReportItem[] = [];
  let action = text(row['action']).toUpperCase();
  if (action === '') {
    action = 'IMAGINE';
    items.push({ ...at, action: 'changed', field: 'action', reason: 'empty: imported as IMAGINE' });
  }
  const buttons = jsonColumn(row['buttons'], 'buttons', at, items);
  const properties = jsonColumn(row['properties'], 'properties', at, items);
  return {
    task: {
      taskId: importedMjTaskId(rowId),
      platform: 'midjourney',
      upstreamTaskId: mjId,
      userId: int(row['user_id']),
      tokenId: 0,
      channelId: Math.max(0, int(row['channel_id'])),
      action,
      model: mjModelName(action),
      code: int(row['code']),
      quota: chargedQuota(row['quota'], at, items),
      status: text(row['status']),
      progress: text(row['progress']),
      failReason: text(row['fail_reason']),
      submitTime: time(row['submit_time']),
      startTime: time(row['start_time']),
      finishTime: time(row['finish_time']),
      prompt: text(row['prompt']),
      promptEn: text(row['prompt_en']),
      description: text(row['description']),
      state: text(row['state']),
      imageUrl: text(row['image_url']),
      ...(buttons === undefined ? {} : { buttons }),
      ...(properties === undefined ? {} : { properties }),
      source: { project: 'new-api', table: 'midjourneys', rowId, importedAt },
    },
    items,
  };
}

/**
 * One `tasks` row (Suno; times in seconds, × 1000 for the event). Only the `suno` platform is
 * relayed by Tollgate; an empty task_id is skipped like an empty mj_id; an empty action (new-api
 * stores none for some submissions) is kept, reported, and billed as suno_music.
 */
export function mapSunoTaskRow(row: Row, importedAt: string): Mapped<MappedTask> {
  const id = rowIdOf('tasks', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  const platform = text(row['platform']).toLowerCase();
  if (platform !== 'suno')
    return {
      skipped: {
        ...at,
        action: 'skipped',
        reason: `platform '${platform}' is not relayed by Tollgate`,
      },
    };
  const taskId = text(row['task_id']);
  if (taskId === '')
    return {
      skipped: { ...at, action: 'skipped', reason: 'empty task_id: the upstream never took it' },
    };
  const items: ReportItem[] = [];
  const action = text(row['action']).toUpperCase();
  if (action === '')
    items.push({
      ...at,
      action: 'changed',
      field: 'action',
      reason: 'empty: billed as suno_music',
    });
  const data = jsonColumn(row['data'], 'data', at, items);
  const properties = jsonColumn(row['properties'], 'properties', at, items);
  const ms = (value: unknown) => time(value) * 1000;
  return {
    task: {
      taskId: importedSunoTaskId(rowId),
      platform: 'suno',
      upstreamTaskId: taskId,
      userId: int(row['user_id']),
      tokenId: 0,
      channelId: Math.max(0, int(row['channel_id'])),
      action,
      model: sunoModelName(action || 'MUSIC'),
      code: 0,
      quota: chargedQuota(row['quota'], at, items),
      status: text(row['status']),
      progress: text(row['progress']),
      failReason: text(row['fail_reason']),
      submitTime: ms(row['submit_time']),
      startTime: ms(row['start_time']),
      finishTime: ms(row['finish_time']),
      prompt: '',
      promptEn: '',
      description: '',
      state: '',
      imageUrl: '',
      ...(data === undefined ? {} : { data }),
      ...(properties === undefined ? {} : { properties }),
      createdAt: time(row['created_at']),
      updatedAt: time(row['updated_at']),
      source: { project: 'new-api', table: 'tasks', rowId, importedAt },
    },
    items,
  };
}
