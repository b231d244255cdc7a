import { useCallback, useMemo } from 'react';
import { formatQuota, type QuotaDisplay } from '@/utils/format-quota';
import { useStatus } from './use-status';

/** The status's display setting (DisplayInCurrencyEnabled, QuotaPerUnit). */
export function useQuotaDisplay(): QuotaDisplay {
  const { display_in_currency, quota_per_unit } = useStatus();
  return useMemo(
    () => ({ displayInCurrency: display_in_currency, quotaPerUnit: quota_per_unit }),
    [display_in_currency, quota_per_unit],
  );
}

/** Formats quota units the way the status says, with the console's one money format. */
export function useQuotaFormatter(): (quota: number) => string {
  const display = useQuotaDisplay();
  return useCallback((quota: number) => formatQuota(quota, display), [display]);
}
