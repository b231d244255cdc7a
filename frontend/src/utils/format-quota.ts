export interface QuotaDisplay {
  /** DisplayInCurrencyEnabled: show dollars instead of raw quota units. */
  displayInCurrency: boolean;
  /** QuotaPerUnit: quota units worth one dollar (500000 by default). */
  quotaPerUnit: number;
}

export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Significant digits an amount below a cent keeps where it must not read as zero. */
const SUB_CENT_DIGITS = 2;

/** Abbreviates from 10,000 on (k), a million (M) and a billion (B), one decimal. */
export function abbreviateNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1_000_000_000) return `${(value / 1_000_000_000).toFixed(1)}B`;
  if (abs >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (abs >= 10_000) return `${(value / 1_000).toFixed(1)}k`;
  return String(value);
}

const toDollars = (quota: number, display: QuotaDisplay) =>
  quota / (display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT);

/** `-$1.00`, not `$-1.00`: the sign goes before the currency symbol. */
const dollarText = (dollars: number, digits: string) => `${dollars < 0 ? '-' : ''}$${digits}`;

/** `$0.0048`: two significant digits, for an amount that two decimals would show as `$0.00`. */
const subCentText = (dollars: number) =>
  dollarText(dollars, String(Number(Math.abs(dollars).toPrecision(SUB_CENT_DIGITS))));

/**
 * `$` and two decimals in currency mode, otherwise the abbreviated quota. A negative balance is a
 * debt: it reads `-$1.00`, and one below a cent keeps its digits (`-$0.0004`), never `-$0.00`.
 */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  if (!display.displayInCurrency) return abbreviateNumber(quota);
  const dollars = toDollars(quota, display);
  const cents = Math.abs(dollars).toFixed(2);
  if (dollars < 0 && Number(cents) === 0) return subCentText(dollars);
  return dollarText(dollars, cents);
}

/**
 * The console's quota format, except that a spend below a cent keeps two significant digits in
 * currency mode: a few cheap calls would otherwise read `$0.00` on every card, axis tick and
 * tooltip of the dashboard, and a log row's overrun would read as nothing.
 */
export function formatSpend(quota: number, display: QuotaDisplay): string {
  const shown = formatQuota(quota, display);
  if (!display.displayInCurrency || quota === 0 || shown !== '$0.00') return shown;
  return subCentText(toDollars(quota, display));
}
