import { modelPrices, type PricingRowDto } from '@tollgate/contracts';
import { DEFAULT_QUOTA_PER_UNIT, formatQuota, type QuotaDisplay } from '@/utils/format-quota';

/** A model's price cells for one group, formatted for the display setting. */
export type PriceCells =
  | { readonly mode: 'ratio'; readonly prompt: string; readonly completion: string }
  | { readonly mode: 'price'; readonly perCall: string };

/**
 * A price in dollars written by the console's money format: `$75.00`, `$0.15`, `$0.000412`, or,
 * when the site shows quota, the same amount in quota units (QuotaPerUnit per dollar), rounded like
 * the billing.
 */
export function formatPriceAmount(usd: number, display: QuotaDisplay): string {
  const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
  const quota = usd * perUnit;
  return formatQuota(display.displayInCurrency ? quota : Math.round(quota), display);
}

/** The page's price column: the shared formulas (modelPrices), then the display setting. */
export function priceCells(
  row: Pick<PricingRowDto, 'quota_type' | 'model_ratio' | 'completion_ratio' | 'model_price'>,
  groupRatio: number,
  display: QuotaDisplay,
): PriceCells {
  const prices = modelPrices(row, groupRatio);
  if (prices.mode === 'price')
    return { mode: 'price', perCall: formatPriceAmount(prices.perCall, display) };
  return {
    mode: 'ratio',
    prompt: formatPriceAmount(prices.prompt, display),
    completion: formatPriceAmount(prices.completion, display),
  };
}

/** A group missing from GroupRatio is billed at 1 (the relay's rule). */
export function ratioOf(groupRatio: Readonly<Record<string, number>>, group: string): number {
  const ratio = groupRatio[group];
  return typeof ratio === 'number' && Number.isFinite(ratio) ? ratio : 1;
}
