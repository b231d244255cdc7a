import { isSkipped } from './import-mapping';
import { mapTopUpRow } from './topup-mapping';

const AT = '2026-01-15T08:00:00.000Z';
const row = (over: Record<string, unknown> = {}) => ({
  id: 4,
  user_id: 2,
  amount: 10,
  money: 7.3,
  trade_no: 'USR2NOabc1231700000000',
  create_time: 1_700_000_000,
  status: 'pending',
  ...over,
});
const map = (over: Record<string, unknown> = {}, quotaPerUnit?: number) => {
  const mapped = mapTopUpRow(row(over), AT, quotaPerUnit);
  if (isSkipped(mapped)) throw new Error(mapped.skipped.reason);
  return mapped;
};

describe('mapTopUpRow', () => {
  it('maps a pending order; paying it credits amount × QuotaPerUnit', () => {
    const { order, items } = map();
    expect(order).toEqual({
      tradeNo: 'USR2NOabc1231700000000',
      userId: 2,
      provider: 'epay',
      paymentMethod: '',
      amount: 10,
      money: 7.3,
      quota: 5_000_000,
      createdTime: 1_700_000_000,
      status: 'pending',
      source: { project: 'new-api', table: 'top_ups', rowId: 4, importedAt: AT },
    });
    expect(items).toEqual([]);
    expect(map({}, 1000).order.quota).toBe(10_000);
  });

  it('keeps success, expired and failed as they are', () => {
    expect(map({ status: 'success' }).order.status).toBe('success');
    expect(map({ status: 'expired' }).order.status).toBe('expired');
    expect(map({ status: 'failed' }).order.status).toBe('failed');
  });

  it('an unknown status comes in as failed (never paid by a callback), reported', () => {
    const { order, items } = map({ status: 'refunded' });
    expect(order.status).toBe('failed');
    expect(items[0]).toMatchObject({ field: 'status', action: 'changed' });
  });

  it('skips an empty trade no and one that cannot name an order stream', () => {
    const empty = mapTopUpRow(row({ trade_no: '' }), AT);
    expect(isSkipped(empty) && empty.skipped.reason).toBe('empty trade_no');
    const odd = mapTopUpRow(row({ trade_no: 'a b/c' }), AT);
    expect(isSkipped(odd) && odd.skipped.reason).toMatch(/trade_no is not/);
  });

  it('money is rounded to cents; negatives come in as 0, reported', () => {
    expect(map({ money: 7.299999 }).order.money).toBe(7.3);
    const { order, items } = map({ amount: -1, money: -2 });
    expect(order).toMatchObject({ amount: 0, money: 0, quota: 0 });
    expect(items.map((i) => i.field)).toEqual(['amount', 'money']);
  });
});
