export interface QuotaDisplay {
  /** DisplayInCurrencyEnabled: show dollars instead of raw quota units. */
  displayInCurrency: boolean;
  /** QuotaPerUnit: quota units worth one dollar (500000 by default). */
  quotaPerUnit: number;
}

export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Abbreviates from 10,000 on (k), a million (M) and a billion (B), one decimal. */
export function abbreviateNumber(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1_000_000_000) return `${(value / 1_000_000_000).toFixed(1)}B`;
  if (abs >= 1_000_000) return `${(value / 1_000_000).toFixed(1)}M`;
  if (abs >= 10_000) return `${(value / 1_000).toFixed(1)}k`;
  return String(value);
}

/** Spec 000 §9: `$` and two decimals in currency mode, otherwise the abbreviated quota. */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  if (display.displayInCurrency) {
    const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
    return `$${(quota / perUnit).toFixed(2)}`;
  }
  return abbreviateNumber(quota);
}
