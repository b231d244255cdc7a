import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { OPEN_DELAY_MS, useEpayPay, useStripePay, useTopUpMoney } from './use-online-topup';

/**
 * The online top-up's amount (a whole number of at least the minimum), its quotes, and the pay
 * actions. After a click the buttons stay off for OPEN_DELAY_MS, whatever the answer.
 */
export function useTopUpPayment() {
  const { t } = useTranslation();
  const status = useStatus();
  const epay = status.enable_online_topup;
  const stripe = status.enable_stripe_topup;
  const minimum = Math.max(1, (epay ? status.min_topup : status.stripe_min_topup) || 1);
  const [amount, setAmount] = useState(minimum);
  const [cooling, setCooling] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const epayQuote = useTopUpMoney('epay', amount, epay);
  const stripeQuote = useTopUpMoney('stripe', amount, stripe);
  const epayPay = useEpayPay();
  const stripePay = useStripePay();

  const coolDown = () => {
    setCooling(true);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setCooling(false), OPEN_DELAY_MS);
  };

  const valid = () => {
    if (Number.isInteger(amount) && amount >= minimum) return true;
    notifyError(t('wallet.amountTooSmall', { minimum }));
    return false;
  };

  return {
    epay,
    stripe,
    amount,
    setAmount,
    epayMoney: epayQuote.data,
    // Until the server's quote arrives, Stripe's is amount × StripeUnitPrice (as the server does).
    stripeMoney: stripeQuote.data ?? amount * (status.stripe_unit_price || 1),
    busy: cooling || epayPay.isPending || stripePay.isPending,
    payEpay: (method: string) => {
      if (!valid()) return;
      coolDown();
      epayPay.mutate({ amount, payment_method: method });
    },
    payStripe: () => {
      if (!valid()) return;
      coolDown();
      stripePay.mutate(amount);
    },
  };
}
