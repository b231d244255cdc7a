import type { MidjourneyRow, TaskRow } from '@tollgate/contracts';
import type { OptionsCache } from '../options/options.cache';
import { shownImageUrl } from './read/task-image-url';
import { parseAnswer } from './task-upstream';

/** A stored JSON column, or `fallback` when empty or unreadable. */
function parsed(text: string, fallback: unknown): unknown {
  const value = text === '' ? undefined : parseAnswer(text);
  return value === undefined ? fallback : value;
}

/** midjourney-proxy's task DTO, as new-api answers /mj/task/:id/fetch and list-by-condition. */
export function midjourneyDto(
  row: MidjourneyRow,
  options: Pick<OptionsCache, 'bool' | 'get'>,
  nowMs = Date.now(),
) {
  const shown = shownImageUrl(options, row.mj_id, row.image_url);
  // An unfinished forwarded image still changes: new-api's `rand` defeats caches.
  const imageUrl =
    shown !== row.image_url && row.status !== 'SUCCESS'
      ? `${shown}?rand=${nowMs * 1_000_000}`
      : shown;
  const properties = parsed(row.properties, {}) as Record<string, unknown> | null;
  return {
    id: row.mj_id,
    action: row.action,
    customId: '',
    botType: '',
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl,
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parsed(row.buttons, []),
    maskBase64: '',
    properties: {
      finalPrompt: typeof properties?.['finalPrompt'] === 'string' ? properties['finalPrompt'] : '',
      finalZhPrompt:
        typeof properties?.['finalZhPrompt'] === 'string' ? properties['finalZhPrompt'] : '',
    },
  };
}

/** Suno's TaskDto, as new-api answers /suno/fetch. */
export function sunoDto(row: TaskRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: row.data ?? null,
  };
}
