import { DEFAULT_QUOTA_PER_UNIT, formatQuota, type QuotaDisplay } from '@/utils/format-quota';

/**
 * The console's quota format (`$` and two decimals, or abbreviated units), except that a spend
 * below a cent keeps two significant digits in currency mode: a few cheap calls would otherwise
 * read `$0.00` on every card, axis tick and tooltip of the dashboard.
 */
export function formatSpend(quota: number, display: QuotaDisplay): string {
  const shown = formatQuota(quota, display);
  if (!display.displayInCurrency || quota === 0 || shown !== '$0.00') return shown;
  const dollars =
    quota / (display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT);
  return `$${Number(dollars.toPrecision(2))}`;
}
