import { Button, Card, Group, NumberInput, Slider, Stack, Text, Title } from '@mantine/core';
import { TOPUP_MAX_AMOUNT } from '@tollgate/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { OPEN_DELAY_MS, useEpayPay, useStripePay, useTopUpMoney } from '../hooks/use-online-topup';
import { stripeCredited } from '../utils/pay-page';

/** The Epay types new-api's console offers. */
const EPAY_METHODS = [
  { type: 'alipay', color: 'blue' },
  { type: 'wxpay', color: 'green' },
] as const;

const SLIDER_MAX = 100;

const money = (value: number) => value.toFixed(2);

/**
 * Online top-up: the amount (slider 1–100 and a field), its price before paying, Epay's payment
 * methods when Epay is configured and the Stripe button (with its fee) when Stripe is.
 */
export function OnlineTopUpCard() {
  const { t } = useTranslation();
  const status = useStatus();
  const epay = status.enable_online_topup;
  const stripe = status.enable_stripe_topup;
  const minimum = Math.max(1, (epay ? status.min_topup : status.stripe_min_topup) || 1);
  const [amount, setAmount] = useState(minimum);
  const [cooling, setCooling] = useState(false);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const price = useTopUpMoney('epay', amount, epay);
  const stripePrice = useTopUpMoney('stripe', amount, stripe);
  const epayPay = useEpayPay();
  const stripePay = useStripePay();

  if (!epay && !stripe) return null;

  /** Spec 001 §9: the buttons come back 2 s after a click, whatever the answer. */
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

  const payEpay = (method: string) => {
    if (!valid()) return;
    coolDown();
    epayPay.mutate({ amount, payment_method: method });
  };

  const payStripe = () => {
    if (!valid()) return;
    coolDown();
    stripePay.mutate(amount);
  };

  const busy = cooling || epayPay.isPending || stripePay.isPending;
  const shown = (value: string | number | undefined) => {
    const number = Number(value);
    return value === undefined || Number.isNaN(number) ? '—' : money(number);
  };
  // Until the server's quote arrives, Stripe's is amount × StripeUnitPrice (as the server does).
  const stripeMoney = stripePrice.data ?? amount * (status.stripe_unit_price || 1);

  return (
    <Card withBorder radius="md">
      <Title order={4} mb="md">
        {t('wallet.onlineTitle')}
      </Title>
      <Stack>
        <NumberInput
          label={t('wallet.amountLabel')}
          min={1}
          max={TOPUP_MAX_AMOUNT}
          allowDecimal={false}
          allowNegative={false}
          value={amount}
          onChange={(value) => setAmount(typeof value === 'number' ? value : Number(value) || 0)}
        />
        <Slider
          thumbLabel={t('wallet.amountLabel')}
          min={1}
          max={SLIDER_MAX}
          step={1}
          value={Math.min(Math.max(amount, 1), SLIDER_MAX)}
          onChange={setAmount}
          marks={[
            { value: 1, label: '1' },
            { value: 50, label: '50' },
            { value: 100, label: '100' },
          ]}
          mb="lg"
        />
        {epay && (
          <Stack gap="xs">
            <Text data-testid="epay-price">
              {t('wallet.epayPrice', { money: shown(price.data) })}
            </Text>
            <Group>
              {EPAY_METHODS.map((method) => (
                <Button
                  key={method.type}
                  color={method.color}
                  disabled={busy}
                  onClick={() => payEpay(method.type)}
                >
                  {t(`wallet.methods.${method.type}`)}
                </Button>
              ))}
            </Group>
          </Stack>
        )}
        {stripe && (
          <Stack gap="xs">
            <Text data-testid="stripe-price">
              {t('wallet.stripePrice', { money: shown(stripeMoney) })}
            </Text>
            <Text size="sm" c="dimmed" data-testid="stripe-fee">
              {t('wallet.stripeFee', { credited: money(stripeCredited(amount)) })}
            </Text>
            <Group>
              <Button color="violet" disabled={busy} onClick={payStripe}>
                {t('wallet.methods.stripe')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Card>
  );
}
