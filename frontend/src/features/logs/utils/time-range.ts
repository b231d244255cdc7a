import { formatDateTime, nowSeconds, parseDateTime } from '@/utils/date-time';

/** A filter bar's time range as the user types it (YYYY-MM-DD HH:mm:ss). */
export interface TimeRangeDraft {
  start: string;
  end: string;
}

/** The range to edit; an open end (the default) shows now + 1 hour until the next search. */
export const timeRangeDraft = (params: {
  start_timestamp: number;
  end_timestamp?: number;
}): TimeRangeDraft => ({
  start: formatDateTime(params.start_timestamp),
  end: formatDateTime(params.end_timestamp ?? nowSeconds() + 3600),
});

/** The typed range as URL filters (unix seconds), or null when either end is not a time. */
export function parseTimeRange(draft: TimeRangeDraft): TimeRangeDraft | null {
  const start = parseDateTime(draft.start);
  const end = parseDateTime(draft.end);
  return start === null || end === null ? null : { start: String(start), end: String(end) };
}
