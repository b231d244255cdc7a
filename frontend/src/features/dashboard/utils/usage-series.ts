import type { QuotaDataRowDto } from '@tollgate/contracts';

export type Granularity = 'hour' | 'day' | 'week';

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week'];

const HOUR = 3600;
const DAY = 24 * HOUR;

/** `DataExportDefaultTime` → granularity ('hour' unless the option says day or week). */
export function granularityOf(defaultTime: string | undefined): Granularity {
  return defaultTime === 'day' || defaultTime === 'week' ? defaultTime : 'hour';
}

/**
 * The range the page opens with, as new-api's dashboard: hour → the last 24 hours, day → the
 * last 7 days, week → the last 30 days; the end is an hour ahead so the current hour shows.
 */
export function defaultRange(
  granularity: Granularity,
  now: number,
): { start_timestamp: number; end_timestamp: number } {
  const span = granularity === 'hour' ? DAY : granularity === 'day' ? 7 * DAY : 30 * DAY;
  return { start_timestamp: now - span, end_timestamp: now + HOUR };
}

/** Start (unix seconds, local time) of the hour, day or week (from Monday) `seconds` falls in. */
export function bucketStart(seconds: number, granularity: Granularity): number {
  const date = new Date(seconds * 1000);
  date.setMinutes(0, 0, 0);
  if (granularity !== 'hour') date.setHours(0);
  if (granularity === 'week') date.setDate(date.getDate() - ((date.getDay() + 6) % 7));
  return Math.floor(date.getTime() / 1000);
}

function nextBucket(start: number, granularity: Granularity): number {
  if (granularity === 'hour') return start + HOUR;
  const date = new Date(start * 1000);
  date.setDate(date.getDate() + (granularity === 'week' ? 7 : 1));
  return Math.floor(date.getTime() / 1000);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** Axis label: `MM-DD HH:00` per hour, `YYYY-MM-DD` per day or week (the week's Monday). */
export function bucketLabel(start: number, granularity: Granularity): string {
  const date = new Date(start * 1000);
  const day = `${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  if (granularity === 'hour') return `${day} ${pad(date.getHours())}:00`;
  return `${date.getFullYear()}-${day}`;
}

export interface SeriesModel {
  /** The chart's data key (`m0`, `m1`…): model names hold dots that chart paths would split. */
  key: string;
  name: string;
}

export type SeriesPoint = { time: number; label: string } & Record<string, number | string>;

export interface UsageSeries {
  /** Models by descending spend (then name). */
  models: SeriesModel[];
  /** Quota per model and bucket, every bucket of the range (gaps as zeros). */
  quota: SeriesPoint[];
  /** Requests per model and bucket. */
  count: SeriesPoint[];
  /** Requests, quota and tokens per model over the whole range, in `models` order. */
  share: Array<SeriesModel & { count: number; quota: number; tokens: number }>;
}

/** At most this many buckets are filled in between rows; beyond, only buckets with rows show. */
const MAX_FILLED_BUCKETS = 2_000;

/**
 * The hourly rows regrouped per hour, day or week of local time, one series per model. Empty
 * buckets between `range.start` and `range.end` are filled with zeros so time runs evenly.
 */
export function buildUsageSeries(
  rows: readonly QuotaDataRowDto[],
  granularity: Granularity,
  range?: { start: number; end: number },
): UsageSeries {
  const totals = new Map<string, { count: number; quota: number; tokens: number }>();
  const buckets = new Map<number, Map<string, { count: number; quota: number }>>();
  for (const row of rows) {
    const total = totals.get(row.model_name) ?? { count: 0, quota: 0, tokens: 0 };
    total.count += row.count;
    total.quota += row.quota;
    total.tokens += row.token_used;
    totals.set(row.model_name, total);
    const at = bucketStart(row.created_at, granularity);
    const bucket = buckets.get(at) ?? new Map<string, { count: number; quota: number }>();
    const cell = bucket.get(row.model_name) ?? { count: 0, quota: 0 };
    cell.count += row.count;
    cell.quota += row.quota;
    bucket.set(row.model_name, cell);
    buckets.set(at, bucket);
  }
  const ordered = [...totals.entries()].sort(
    ([a, x], [b, y]) => y.quota - x.quota || y.count - x.count || a.localeCompare(b),
  );
  const models = ordered.map(([name], index) => ({ key: `m${index}`, name }));
  const share = ordered.map(([name, total], index) => ({ key: `m${index}`, name, ...total }));

  const times = new Set(buckets.keys());
  if (rows.length > 0 && range && range.end >= range.start) {
    let at = bucketStart(range.start, granularity);
    const last = bucketStart(range.end, granularity);
    for (let n = 0; at <= last && n < MAX_FILLED_BUCKETS; n++) {
      times.add(at);
      at = nextBucket(at, granularity);
    }
  }
  const quota: SeriesPoint[] = [];
  const count: SeriesPoint[] = [];
  for (const time of [...times].sort((a, b) => a - b)) {
    const label = bucketLabel(time, granularity);
    const q: SeriesPoint = { time, label };
    const c: SeriesPoint = { time, label };
    const bucket = buckets.get(time);
    for (const { key, name } of models) {
      const cell = bucket?.get(name);
      q[key] = cell?.quota ?? 0;
      c[key] = cell?.count ?? 0;
    }
    quota.push(q);
    count.push(c);
  }
  return { models, quota, count, share };
}

export interface UsageSummary {
  quota: number;
  count: number;
  tokens: number;
  /** Requests per minute over the whole range (new-api: count / minutes of the range). */
  rpm: number;
  /** Tokens per minute over the whole range. */
  tpm: number;
}

/** The summary cards: totals over the rows, and per-minute averages over the chosen range. */
export function summarizeUsage(
  rows: readonly QuotaDataRowDto[],
  range: { start: number; end: number },
): UsageSummary {
  let quota = 0;
  let count = 0;
  let tokens = 0;
  for (const row of rows) {
    quota += row.quota;
    count += row.count;
    tokens += row.token_used;
  }
  const minutes = (range.end - range.start) / 60;
  const perMinute = (value: number) =>
    minutes > 0 ? Math.round((value / minutes) * 1000) / 1000 : 0;
  return { quota, count, tokens, rpm: perMinute(count), tpm: perMinute(tokens) };
}
