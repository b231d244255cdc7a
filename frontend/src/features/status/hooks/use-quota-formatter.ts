import { useCallback } from 'react';
import { formatQuota, type QuotaDisplay } from '@/utils/format-quota';
import { useStatus } from './use-status';

/**
 * Formats quota the way the status says (DisplayInCurrencyEnabled, QuotaPerUnit); `format` is
 * the console's formatQuota unless a page needs a variant of it (the dashboard's sub-cent spends).
 */
export function useQuotaFormatter(
  format: (quota: number, display: QuotaDisplay) => string = formatQuota,
): (quota: number) => string {
  const { display_in_currency, quota_per_unit } = useStatus();
  return useCallback(
    (quota: number) =>
      format(quota, { displayInCurrency: display_in_currency, quotaPerUnit: quota_per_unit }),
    [format, display_in_currency, quota_per_unit],
  );
}
