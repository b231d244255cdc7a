import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { selfQueries } from '@/features/setting';
import { useQuotaFormatter } from '@/features/status';
import { ApiError, UnauthorizedError } from '@/lib/http';
import { notifyError, notifySuccess } from '@/lib/notify';
import { walletApi } from '../api/wallet.api';

/** POST /api/user/topup; the toast names the amount and the balance is read again. */
export function useRedeemCode() {
  const { t } = useTranslation();
  const formatQuota = useQuotaFormatter();
  return useMutation({
    mutationFn: (key: string) => walletApi.redeem({ key }),
    // The server's message when it answers, "request failed" when the call throws.
    meta: { silent: true, invalidates: selfQueries.all },
    onError: (error) => {
      if (error instanceof UnauthorizedError) return;
      notifyError(error instanceof ApiError ? error.message : t('wallet.requestFailed'));
    },
    onSuccess: (quota) => notifySuccess(t('wallet.redeemed', { amount: formatQuota(quota ?? 0) })),
  });
}
