export interface QuotaDisplay {
  /** DisplayInCurrencyEnabled: show dollars instead of raw quota units. */
  displayInCurrency: boolean;
  /** QuotaPerUnit: quota units worth one dollar (500000 by default). */
  quotaPerUnit: number;
}

export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Significant digits an amount below a dollar keeps: `$0.000412`, `$0.0041`, `$0.125`. */
const SIGNIFICANT_DIGITS = 3;
/** Decimals a dollar amount always shows (`$0.50`, `$12.35`). */
const MIN_DECIMALS = 2;
/** toFixed's limit: past it an amount is not worth showing in more detail. */
const MAX_DECIMALS = 20;

/** Dollars for quota units, with the default unit when the status carries none. */
export function quotaToDollars(quota: number, display: QuotaDisplay): number {
  return quota / (display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT);
}

/** Decimals that keep `SIGNIFICANT_DIGITS` of an amount below a dollar, and at least two. */
function decimalsFor(abs: number): number {
  if (abs === 0 || abs >= 1) return MIN_DECIMALS;
  const leadingZeros = -Math.floor(Math.log10(abs)) - 1;
  return Math.min(Math.max(MIN_DECIMALS, leadingZeros + SIGNIFICANT_DIGITS), MAX_DECIMALS);
}

/** `1234.5` → `1,234.50`; past two decimals, trailing zeros go (`0.000400` → `0.0004`). */
function groupedDecimals(abs: number, decimals: number): string {
  const [whole = '0', fraction = ''] = abs.toFixed(decimals).split('.');
  const grouped = Number(whole).toLocaleString('en-US');
  const kept = fraction.replace(/0+$/, '').padEnd(MIN_DECIMALS, '0');
  return `${grouped}.${kept}`;
}

/** Options of one call: `decimals` fixes the precision (a chart axis whose ticks share one). */
export interface QuotaFormatOptions {
  readonly decimals?: number;
}

/**
 * The console's one money format. In currency mode quota units become dollars (quota ÷
 * QuotaPerUnit) with as many decimals as keep a non-zero amount from reading as zero: `$0.000412`,
 * `$0.0041`, `$12.35`, `$1,234.50`; a debt reads `-$0.0004`. Otherwise the quota units themselves
 * with thousands separators (`50,000,000`).
 */
export function formatQuota(
  quota: number,
  display: QuotaDisplay,
  options: QuotaFormatOptions = {},
): string {
  if (!Number.isFinite(quota)) return '—';
  if (!display.displayInCurrency) {
    return quota.toLocaleString('en-US', {
      maximumFractionDigits: options.decimals ?? MIN_DECIMALS,
    });
  }
  const dollars = quotaToDollars(quota, display);
  const abs = Math.abs(dollars);
  const decimals = Math.min(options.decimals ?? decimalsFor(abs), MAX_DECIMALS);
  const digits = groupedDecimals(abs, decimals);
  const zero = /^[0.,]+$/.test(digits);
  return `${dollars < 0 && !zero ? '-' : ''}$${digits}`;
}

/** The fewest decimals (from `floor`) that write `value` without rounding it. */
function exactDecimals(value: number, floor: number): number {
  for (let decimals = floor; decimals < MAX_DECIMALS; decimals += 1)
    if (Math.abs(Number(value.toFixed(decimals)) - value) <= Math.abs(value) * 1e-9)
      return decimals;
  return MAX_DECIMALS;
}

/**
 * The one precision for all ticks of a chart axis: each tick written without rounding (dollar
 * ticks 0.0025 apart show `$0.0025`, `$0.005`, `$0.0075`), never two alike; at least two decimals
 * for dollars, none for whole units.
 */
export function tickDecimals(ticks: readonly number[], display: QuotaDisplay): number {
  const floor = display.displayInCurrency ? MIN_DECIMALS : 0;
  const shown = ticks.map((tick) =>
    display.displayInCurrency ? quotaToDollars(tick, display) : tick,
  );
  return Math.max(floor, ...shown.map((value) => exactDecimals(value, floor)));
}
