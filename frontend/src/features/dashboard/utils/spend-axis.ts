import { formatQuota, quotaToDollars, tickDecimals, type QuotaDisplay } from '@/utils/format-quota';
import type { SeriesModel, SeriesPoint } from './usage-series';

/** Intervals an axis aims for: five ticks above zero at most. */
const INTERVALS = 4;

export interface SpendAxis {
  /** Tick values in quota units, from 0 to at least the tallest stacked bucket. */
  readonly ticks: number[];
  readonly format: (quota: number) => string;
}

/** The tallest bucket of the stacked spend chart, in quota units. */
export function stackedMax(points: readonly SeriesPoint[], models: readonly SeriesModel[]): number {
  let max = 0;
  for (const point of points) {
    const total = models.reduce((sum, model) => sum + Number(point[model.key] ?? 0), 0);
    if (total > max) max = total;
  }
  return max;
}

/** 1, 2, 2.5 or 5 times a power of ten: the smallest such step covering `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = [1, 2, 2.5, 5, 10].find((factor) => factor * power >= rough) ?? 10;
  return Number((step * power).toPrecision(12));
}

/**
 * The spend chart's y axis: round steps in the unit shown (dollars or quota units) from 0 past
 * the tallest bucket, each tick written by the console's money format at one shared precision so
 * that no two read alike (`$0.001`, `$0.002`… rather than `$0.01, $0.01, $0.01`).
 */
export function spendAxis(max: number, display: QuotaDisplay): SpendAxis {
  const perQuota = display.displayInCurrency ? quotaToDollars(1, display) : 1;
  const top = max > 0 ? max * perQuota : perQuota;
  const step = niceStep(top / INTERVALS);
  const count = Math.max(1, Math.ceil(top / step - 1e-9));
  const ticks = Array.from(
    { length: count + 1 },
    (_, i) => Number((i * step).toPrecision(12)) / perQuota,
  );
  const decimals = tickDecimals(ticks, display);
  return { ticks, format: (quota) => formatQuota(quota, display, { decimals }) };
}
