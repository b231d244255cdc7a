import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { selfQueries } from '@/features/setting';
import { notifySuccess } from '@/lib/notify';
import { topUpQueries } from '../api/wallet.api';

/**
 * Back from Stripe Checkout (`?session_id=…`): say the payment went through, read the balance and
 * the orders again, and drop the parameter so a reload does not say it twice.
 */
export function useStripeReturn() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const sessionId = params.get('session_id');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!sessionId || seen.current === sessionId) return;
    seen.current = sessionId;
    notifySuccess(t('wallet.paid'));
    void queryClient.invalidateQueries({ queryKey: selfQueries.all });
    void queryClient.invalidateQueries({ queryKey: topUpQueries.all });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('session_id');
        return next;
      },
      { replace: true },
    );
  }, [sessionId, queryClient, setParams, t]);
}
