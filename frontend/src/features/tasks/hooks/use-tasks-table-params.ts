import { useMemo, useState } from 'react';
import { nowSeconds, startOfDay } from '@/utils/date-time';
import type { MidjourneyListParams, TaskListParams } from '../api/tasks.api';
import { secondsParam, useTaskSearchParams } from './use-task-search-params';

const DAY = 86_400;

const MIDJOURNEY_FILTERS = ['channel_id', 'mj_id', 'start', 'end'] as const;
export type MidjourneyFilterName = (typeof MIDJOURNEY_FILTERS)[number];

/**
 * The drawing log's page and filters (in the URL). Without times the range starts 30 days ago
 * (fixed at mount) and is open-ended; the form shows now + 1 hour as its end until a search.
 */
export function useMidjourneyTableParams() {
  const { page, raw, update } = useTaskSearchParams(MIDJOURNEY_FILTERS);
  const [defaultStart] = useState(() => nowSeconds() - 30 * DAY);
  const params = useMemo<MidjourneyListParams>(
    () => ({
      page,
      channel_id: raw.channel_id,
      mj_id: raw.mj_id,
      start_timestamp: secondsParam(raw.start, defaultStart),
      end_timestamp: secondsParam(raw.end, undefined),
    }),
    [page, raw, defaultStart],
  );
  return { params, update };
}

const TASK_FILTERS = ['channel_id', 'task_id', 'status', 'action', 'start', 'end'] as const;
export type TaskFilterName = (typeof TASK_FILTERS)[number];

/** The task log's page and filters (in the URL); without times, from today's start, open-ended. */
export function useTaskTableParams() {
  const { page, raw, update } = useTaskSearchParams(TASK_FILTERS);
  const [defaultStart] = useState(() => startOfDay(nowSeconds()));
  const params = useMemo<TaskListParams>(
    () => ({
      page,
      channel_id: raw.channel_id,
      task_id: raw.task_id,
      status: raw.status,
      action: raw.action,
      start_timestamp: secondsParam(raw.start, defaultStart),
      end_timestamp: secondsParam(raw.end, undefined),
    }),
    [page, raw, defaultStart],
  );
  return { params, update };
}
