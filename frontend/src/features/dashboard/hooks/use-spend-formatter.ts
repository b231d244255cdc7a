import { useCallback } from 'react';
import { useStatus } from '@/features/status';
import { formatSpend } from '../utils/format-spend';

/** The status's quota display (DisplayInCurrencyEnabled, QuotaPerUnit), sub-cent spends kept. */
export function useSpendFormatter(): (quota: number) => string {
  const { display_in_currency, quota_per_unit } = useStatus();
  return useCallback(
    (quota: number) =>
      formatSpend(quota, { displayInCurrency: display_in_currency, quotaPerUnit: quota_per_unit }),
    [display_in_currency, quota_per_unit],
  );
}
