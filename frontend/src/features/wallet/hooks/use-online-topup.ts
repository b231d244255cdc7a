import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { EpayPayRequest } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { UnauthorizedError } from '@/lib/http';
import { notifyError, notifySuccess } from '@/lib/notify';
import { topUpQueries, walletApi } from '../api/wallet.api';
import { openPayPage } from '../utils/pay-page';

/**
 * How long the Stripe tab waits after the "order created" notice; the pay buttons stay off as long.
 */
export const OPEN_DELAY_MS = 2000;

/** The price of `amount` (Epay or Stripe), asked again once the amount stops moving. */
export function useTopUpMoney(provider: 'epay' | 'stripe', amount: number, enabled: boolean) {
  const [settled] = useDebouncedValue(amount, 300);
  return useQuery({ ...topUpQueries.money(provider, settled), enabled: enabled && settled > 0 });
}

function useOrderFailed() {
  const { t } = useTranslation();
  return (error: Error) => {
    if (error instanceof UnauthorizedError) return;
    notifyError(t('wallet.orderFailed', { message: error.message }));
  };
}

/** POST /api/user/pay, then the signed form goes to the gateway. */
export function useEpayPay() {
  const { t } = useTranslation();
  const onError = useOrderFailed();
  return useMutation({
    mutationFn: (body: EpayPayRequest) => walletApi.epayPay(body),
    meta: { silent: true, invalidates: topUpQueries.all },
    onError,
    onSuccess: ({ url, params }) => {
      notifySuccess(t('wallet.orderCreated'));
      openPayPage(url, params);
    },
  });
}

/** POST /api/user/createStripe, then Stripe's checkout in a new tab 2 s later. */
export function useStripePay() {
  const { t } = useTranslation();
  const onError = useOrderFailed();
  return useMutation({
    mutationFn: (amount: number) => walletApi.createStripe(amount),
    meta: { silent: true, invalidates: topUpQueries.all },
    onError,
    onSuccess: (url) => {
      notifySuccess(t('wallet.orderCreated'));
      window.setTimeout(() => window.open(url, '_blank'), OPEN_DELAY_MS);
    },
  });
}
