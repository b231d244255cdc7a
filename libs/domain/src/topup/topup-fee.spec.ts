import { priceTopUp, quotaAfterFee } from './topup-pricing';

/** Stripe's fee: about 3 % + $0.30. */
const STRIPE = { percent: 3, fixedCents: 30 };

describe('quotaAfterFee (credited = amount − 3 % − 0.3)', () => {
  it.each([
    [1, 335_000], // 0.67 $
    [10, 4_700_000], // 9.40 $
    [100, 48_350_000], // 96.70 $
    [10_000, 4_849_850_000], // 9699.70 $
  ])('%i dollars credit %i quota at 500000 per dollar', (amount, quota) => {
    expect(quotaAfterFee(amount, 500_000, STRIPE)).toBe(quota);
  });

  it('rounds down, in integers, for any QuotaPerUnit', () => {
    // 7 × 97 − 30 = 649 cents; 333 × 649 / 100 = 2161.17
    expect(quotaAfterFee(7, 333, STRIPE)).toBe(2161);
    expect(quotaAfterFee(3, 1, { percent: 0, fixedCents: 0 })).toBe(3);
  });

  it('is 0 when the fee takes everything', () => {
    expect(quotaAfterFee(1, 500_000, { percent: 3, fixedCents: 97 })).toBe(0);
    expect(quotaAfterFee(0, 500_000, STRIPE)).toBe(0);
  });
});

describe('priceTopUp with a credit fee', () => {
  const base = { amount: 10, price: 1, groupRatio: 1, quotaPerUnit: 500_000, minTopUp: 1 };

  it('keeps the money and lowers the quota', () => {
    expect(priceTopUp({ ...base, creditFee: STRIPE })).toMatchObject({
      money: 10,
      quota: 4_700_000,
    });
    expect(priceTopUp(base)).toMatchObject({ money: 10, quota: 5_000_000 });
  });

  it('refuses an order the fee leaves nothing of', () => {
    expect(() =>
      priceTopUp({ ...base, amount: 1, creditFee: { percent: 50, fixedCents: 50 } }),
    ).toThrow('topup.amount_invalid');
  });
});
