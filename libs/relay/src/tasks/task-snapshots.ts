import type { TaskSnapshot } from '@tollgate/domain';

/** Upstream texts kept in events are bounded: a misbehaving upstream cannot bloat the log. */
const MAX_TEXT = 4000;
/** Buttons, properties and clips (JSON): at most this many characters once serialised. */
const MAX_JSON = 64 * 1024;

const str = (value: unknown): string => (typeof value === 'string' ? value.slice(0, MAX_TEXT) : '');
const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : 0;
const bounded = (value: unknown): unknown => {
  if (value === undefined || value === null) return undefined;
  try {
    return JSON.stringify(value).length <= MAX_JSON ? value : undefined;
  } catch {
    return undefined;
  }
};

type Json = Readonly<Record<string, unknown>>;

/** midjourney-proxy's task DTO (list-by-condition, fetch) → what a task event records. */
export function mjSnapshot(dto: Json): TaskSnapshot {
  const buttons = bounded(dto['buttons']);
  const properties = bounded(dto['properties']);
  return {
    status: str(dto['status']),
    progress: str(dto['progress']) || '0%',
    failReason: str(dto['failReason']),
    startTime: num(dto['startTime']),
    finishTime: num(dto['finishTime']),
    imageUrl: str(dto['imageUrl']),
    promptEn: str(dto['promptEn']),
    description: str(dto['description']),
    state: str(dto['state']),
    ...(buttons === undefined ? {} : { buttons }),
    ...(properties === undefined ? {} : { properties }),
  };
}

/** Suno's TaskDto (`/suno/fetch`) → what a task event records. */
export function sunoSnapshot(dto: Json): TaskSnapshot {
  const status = str(dto['status']);
  const data = bounded(dto['data']);
  return {
    status,
    progress: status === 'SUCCESS' ? '100%' : str(dto['progress']) || '0%',
    failReason: str(dto['fail_reason']),
    startTime: num(dto['start_time']),
    finishTime: num(dto['finish_time']),
    ...(data === undefined ? {} : { data }),
  };
}

/** The id field of an upstream task DTO. */
export const mjTaskId = (dto: Json): string => str(dto['id']);
export const sunoTaskId = (dto: Json): string => str(dto['task_id']);
