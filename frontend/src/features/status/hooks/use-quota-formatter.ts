import { useCallback } from 'react';
import { formatQuota } from '@/utils/format-quota';
import { useStatus } from './use-status';

/** Formats quota the way the status says (DisplayInCurrencyEnabled, QuotaPerUnit). */
export function useQuotaFormatter(): (quota: number) => string {
  const { display_in_currency, quota_per_unit } = useStatus();
  return useCallback(
    (quota: number) =>
      formatQuota(quota, { displayInCurrency: display_in_currency, quotaPerUnit: quota_per_unit }),
    [display_in_currency, quota_per_unit],
  );
}
