import { FIXED_NOW, spec } from '@tollgate/testing';
import { topUpOrderDecider, type TopUpOrderCommand } from './topup.decider';
import type { TopUpOrderEvent } from './topup.events';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const create = (over: Partial<TopUpOrderCommand & { type: 'CreateTopUpOrder' }> = {}) =>
  ({
    type: 'CreateTopUpOrder',
    tradeNo: 'USR9NOabc123',
    userId: 9,
    provider: 'epay',
    paymentMethod: 'alipay',
    amount: 10,
    price: 7.3,
    groupRatio: 1,
    quotaPerUnit: 500000,
    minTopUp: 1,
    ...over,
  }) as TopUpOrderCommand;
const created: TopUpOrderEvent = {
  type: 'TopUpOrderCreated',
  data: {
    tradeNo: 'USR9NOabc123',
    userId: 9,
    provider: 'epay',
    paymentMethod: 'alipay',
    amount: 10,
    money: 73,
    quota: 5_000_000,
    groupRatio: 1,
    price: 7.3,
    createdTime: NOW_S - 60,
  },
};
const paid: TopUpOrderEvent = {
  type: 'TopUpOrderPaid',
  data: {
    tradeNo: 'USR9NOabc123',
    userId: 9,
    quota: 5_000_000,
    providerReference: 'EP1',
    money: 73,
    via: 'callback',
    paidTime: NOW_S,
  },
};
const confirm = (money: number, provider?: 'epay' | 'stripe'): TopUpOrderCommand => ({
  type: 'ConfirmTopUpPayment',
  providerReference: 'EP1',
  money,
  ...(provider ? { provider } : {}),
});
const expired: TopUpOrderEvent = {
  type: 'TopUpOrderExpired',
  data: { tradeNo: 'USR9NOabc123', userId: 9, expiredTime: NOW_S - 1 },
};
const failed: TopUpOrderEvent = {
  type: 'TopUpOrderFailed',
  data: { tradeNo: 'USR9NOabc123', userId: 9, reason: 'declined', failedTime: NOW_S - 1 },
};

describe('topUpOrderDecider', () => {
  describe('CreateTopUpOrder', () => {
    it('prices the order: money = amount × price × group ratio, quota = amount × QuotaPerUnit', () => {
      spec(topUpOrderDecider)
        .given([])
        .when(create())
        .then([{ ...created, data: { ...created.data, createdTime: NOW_S } }]);
    });

    it('applies the group ratio and rounds the money to cents', () => {
      const events = topUpOrderDecider.decide(
        create({ amount: 3, price: 7.3, groupRatio: 0.9 }),
        topUpOrderDecider.initialState,
        { now: FIXED_NOW },
      );
      expect(events[0]?.data).toMatchObject({ money: 19.71, quota: 1_500_000, groupRatio: 0.9 });
    });

    it('counts a zero group ratio as 1 (new-api)', () => {
      const events = topUpOrderDecider.decide(
        create({ groupRatio: 0 }),
        topUpOrderDecider.initialState,
        { now: FIXED_NOW },
      );
      expect(events[0]?.data).toMatchObject({ money: 73, groupRatio: 1 });
    });

    it.each<[string, Partial<TopUpOrderCommand & { type: 'CreateTopUpOrder' }>, string]>([
      ['a zero amount', { amount: 0 }, 'topup.amount_invalid'],
      ['a negative amount', { amount: -5 }, 'topup.amount_invalid'],
      ['a fractional amount', { amount: 1.5 }, 'topup.amount_invalid'],
      ['NaN', { amount: Number.NaN }, 'topup.amount_invalid'],
      ['an amount under MinTopUp', { amount: 4, minTopUp: 5 }, 'topup.amount_below_minimum'],
      ['an absurd amount', { amount: 1e12 }, 'topup.amount_too_large'],
      ['a money under one cent', { amount: 1, price: 0.001 }, 'topup.money_too_low'],
      ['a zero price', { price: 0 }, 'topup.money_too_low'],
      ['a trade no with odd characters', { tradeNo: 'a b/c' }, 'topup.trade_no_invalid'],
    ])('refuses %s', (_what, over, code) => {
      spec(topUpOrderDecider).given([]).when(create(over)).thenRejects(code);
    });

    it('refuses a second order on the same stream', () => {
      spec(topUpOrderDecider).given([created]).when(create()).thenRejects('topup.order_exists');
    });
  });

  describe('ConfirmTopUpPayment', () => {
    it('records the payment once, with what the provider confirmed', () => {
      spec(topUpOrderDecider).given([created]).when(confirm(73)).then([paid]);
      spec(topUpOrderDecider).given([created]).when(confirm(73.0000001, 'epay')).then([paid]);
    });

    it('decides nothing for a replayed callback of a paid order', () => {
      spec(topUpOrderDecider).given([created, paid]).when(confirm(73)).then([]);
    });

    it('refuses a wrong amount, an unknown order, another provider or a failed order', () => {
      spec(topUpOrderDecider)
        .given([created])
        .when(confirm(72.99))
        .thenRejects('topup.money_mismatch');
      spec(topUpOrderDecider)
        .given([created])
        .when(confirm(Number.NaN))
        .thenRejects('topup.money_mismatch');
      spec(topUpOrderDecider).given([]).when(confirm(73)).thenRejects('topup.order_not_found');
      spec(topUpOrderDecider)
        .given([created])
        .when(confirm(73, 'stripe'))
        .thenRejects('topup.provider_mismatch');
      spec(topUpOrderDecider)
        .given([created, failed])
        .when(confirm(73))
        .thenRejects('topup.status_invalid');
    });

    it('accepts money that arrives after the order expired', () => {
      spec(topUpOrderDecider).given([created, expired]).when(confirm(73)).then([paid]);
    });
  });

  describe('CompleteTopUpOrder (admin)', () => {
    const manual: TopUpOrderEvent = {
      type: 'TopUpOrderPaid',
      data: { ...paid.data, providerReference: '', via: 'admin' },
    };
    it('completes a pending, expired or failed order for its own money', () => {
      spec(topUpOrderDecider).given([created]).when({ type: 'CompleteTopUpOrder' }).then([manual]);
      spec(topUpOrderDecider)
        .given([created, expired])
        .when({ type: 'CompleteTopUpOrder' })
        .then([manual]);
      spec(topUpOrderDecider)
        .given([created, failed])
        .when({ type: 'CompleteTopUpOrder' })
        .then([manual]);
    });
    it('refuses a paid or unknown order', () => {
      spec(topUpOrderDecider)
        .given([created, paid])
        .when({ type: 'CompleteTopUpOrder' })
        .thenRejects('topup.already_completed');
      spec(topUpOrderDecider)
        .given([])
        .when({ type: 'CompleteTopUpOrder' })
        .thenRejects('topup.order_not_found');
    });
  });

  describe('ExpireTopUpOrder / FailTopUpOrder', () => {
    it('closes a pending order', () => {
      spec(topUpOrderDecider)
        .given([created])
        .when({ type: 'ExpireTopUpOrder' })
        .then([
          {
            type: 'TopUpOrderExpired',
            data: { tradeNo: 'USR9NOabc123', userId: 9, expiredTime: NOW_S },
          },
        ]);
      spec(topUpOrderDecider)
        .given([created])
        .when({ type: 'FailTopUpOrder', reason: 'declined' })
        .then([{ ...failed, data: { ...failed.data, failedTime: NOW_S } }]);
    });
    it('leaves a paid or closed order as it is', () => {
      spec(topUpOrderDecider).given([created, paid]).when({ type: 'ExpireTopUpOrder' }).then([]);
      spec(topUpOrderDecider)
        .given([created, expired])
        .when({ type: 'FailTopUpOrder', reason: 'x' })
        .then([]);
    });
  });
});
