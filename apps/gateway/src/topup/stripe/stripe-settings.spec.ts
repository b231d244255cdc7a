import { stripeEndpoint } from './stripe-client';
import {
  stripeEnabled,
  stripeMinTopUp,
  stripePayCents,
  type OptionReader,
} from './stripe-settings';

function options(values: Record<string, string>): OptionReader {
  return {
    get: (key) => values[key] ?? '',
    number: (key) => Number(values[key] ?? 0),
  };
}

const CONFIGURED = {
  StripeApiSecret: 'sk_test_x',
  StripeWebhookSecret: 'whsec_x',
  StripePriceId: 'price_x',
};

describe('Stripe settings', () => {
  it('is enabled only with the key, the webhook secret and the price (as new-api)', () => {
    expect(stripeEnabled(options(CONFIGURED))).toBe(true);
    for (const key of Object.keys(CONFIGURED))
      expect(stripeEnabled(options({ ...CONFIGURED, [key]: '' }))).toBe(false);
  });

  it('takes StripeMinTopUp as the minimum, at least 1', () => {
    expect(stripeMinTopUp(options({ StripeMinTopUp: '5' }))).toBe(5);
    expect(stripeMinTopUp(options({ StripeMinTopUp: '0' }))).toBe(1);
    expect(stripeMinTopUp(options({ StripeMinTopUp: '2.7' }))).toBe(2);
  });

  it('shows amount × StripeUnitPrice in cents', () => {
    expect(stripePayCents(10, 8)).toBe(8000);
    expect(stripePayCents(3, 7.3)).toBe(2190);
    expect(stripePayCents(3, Number.NaN)).toBe(0);
    expect(stripePayCents(3, -1)).toBe(0);
  });

  it('points the library at STRIPE_API_BASE', () => {
    expect(stripeEndpoint('https://api.stripe.com')).toEqual({
      host: 'api.stripe.com',
      port: 443,
      protocol: 'https',
    });
    expect(stripeEndpoint('http://127.0.0.1:12111')).toEqual({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
  });
});
