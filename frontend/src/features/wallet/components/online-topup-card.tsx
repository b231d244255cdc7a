import { Button, Card, Group, NumberInput, Slider, Stack, Text, Title } from '@mantine/core';
import { TOPUP_MAX_AMOUNT } from '@tollgate/contracts';
import { useTranslation } from 'react-i18next';
import { useTopUpPayment } from '../hooks/use-topup-payment';
import { stripeCredited } from '../utils/pay-page';

type TopUpPayment = ReturnType<typeof useTopUpPayment>;

/** The Epay types new-api's console offers. */
const EPAY_METHODS = [
  { type: 'alipay', color: 'blue' },
  { type: 'wxpay', color: 'green' },
] as const;

const SLIDER_MAX = 100;

const money = (value: number) => value.toFixed(2);

/** A quote with two decimals; '—' while there is none. */
const shown = (value: string | number | undefined) => {
  const number = Number(value);
  return value === undefined || Number.isNaN(number) ? '—' : money(number);
};

/**
 * Online top-up: the amount (slider 1–100 and a field), its price before paying, Epay's payment
 * methods when Epay is configured and the Stripe button (with its fee) when Stripe is.
 */
export function OnlineTopUpCard() {
  const { t } = useTranslation();
  const payment = useTopUpPayment();
  const { amount, setAmount } = payment;

  if (!payment.epay && !payment.stripe) return null;

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
        {payment.epay && <EpayMethods payment={payment} />}
        {payment.stripe && <StripeCheckout payment={payment} />}
      </Stack>
    </Card>
  );
}

/** Epay's price and one button per payment method. */
function EpayMethods({ payment }: { payment: TopUpPayment }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text data-testid="epay-price">
        {t('wallet.epayPrice', { money: shown(payment.epayMoney) })}
      </Text>
      <Group>
        {EPAY_METHODS.map((method) => (
          <Button
            key={method.type}
            color={method.color}
            disabled={payment.busy}
            onClick={() => payment.payEpay(method.type)}
          >
            {t(`wallet.methods.${method.type}`)}
          </Button>
        ))}
      </Group>
    </Stack>
  );
}

/** Stripe's price, what reaches the balance after its fee, and the checkout button. */
function StripeCheckout({ payment }: { payment: TopUpPayment }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text data-testid="stripe-price">
        {t('wallet.stripePrice', { money: shown(payment.stripeMoney) })}
      </Text>
      <Text size="sm" c="dimmed" data-testid="stripe-fee">
        {t('wallet.stripeFee', { credited: money(stripeCredited(payment.amount)) })}
      </Text>
      <Group>
        <Button color="violet" disabled={payment.busy} onClick={payment.payStripe}>
          {t('wallet.methods.stripe')}
        </Button>
      </Group>
    </Stack>
  );
}
