import { spec } from '@tollgate/testing';
import { topUpOrderDecider, type TopUpOrderCommand } from './topup.decider';
import type { TopUpOrderImported } from './topup.events';

const facts = (over: Partial<TopUpOrderImported['data']> = {}): TopUpOrderImported['data'] => ({
  tradeNo: 'USR2NOabc1231700000000',
  userId: 2,
  provider: 'epay',
  paymentMethod: '',
  amount: 10,
  money: 7.3,
  quota: 5_000_000,
  createdTime: 1_700_000_000,
  status: 'pending',
  source: { project: 'new-api', table: 'top_ups', rowId: 4, importedAt: '2026-01-15T08:00:00Z' },
  ...over,
});
const importOrder = (over: Partial<TopUpOrderImported['data']> = {}): TopUpOrderCommand => ({
  type: 'ImportTopUpOrder',
  order: facts(over),
});
const imported = (over: Partial<TopUpOrderImported['data']> = {}): TopUpOrderImported => ({
  type: 'TopUpOrderImported',
  data: facts(over),
});
const confirm = (money = 7.3): TopUpOrderCommand => ({
  type: 'ConfirmTopUpPayment',
  providerReference: 'epay-77',
  money,
  provider: 'epay',
});
const NOW_S = 1768464000;

describe('topUpOrderDecider ImportTopUpOrder', () => {
  it('records the order as the source had it', () => {
    spec(topUpOrderDecider).given([]).when(importOrder()).then([imported()]);
  });

  it('decides nothing when the stream holds the order already (a rerun)', () => {
    spec(topUpOrderDecider).given([imported()]).when(importOrder()).then([]);
  });

  it('refuses a trade no that cannot name a stream', () => {
    spec(topUpOrderDecider)
      .given([])
      .when(importOrder({ tradeNo: 'has space' }))
      .thenRejects('topup.trade_no_invalid');
  });

  it('a pending imported order is paid once by a callback, as a created one', () => {
    spec(topUpOrderDecider)
      .given([imported()])
      .when(confirm())
      .then([
        {
          type: 'TopUpOrderPaid',
          data: {
            tradeNo: 'USR2NOabc1231700000000',
            userId: 2,
            quota: 5_000_000,
            providerReference: 'epay-77',
            money: 7.3,
            via: 'callback',
            paidTime: NOW_S,
          },
        },
      ]);
  });

  it('a paid imported order decides nothing on a second callback', () => {
    spec(topUpOrderDecider)
      .given([
        imported(),
        {
          type: 'TopUpOrderPaid',
          data: {
            tradeNo: 'USR2NOabc1231700000000',
            userId: 2,
            quota: 5_000_000,
            providerReference: 'epay-77',
            money: 7.3,
            via: 'callback',
            paidTime: NOW_S,
          },
        },
      ])
      .when(confirm())
      .then([]);
  });

  it('an order imported as success is never paid again (no second credit)', () => {
    spec(topUpOrderDecider)
      .given([imported({ status: 'success' })])
      .when(confirm())
      .then([]);
    spec(topUpOrderDecider)
      .given([imported({ status: 'success' })])
      .when({ type: 'CompleteTopUpOrder' })
      .thenRejects('topup.already_completed');
  });

  it('the money must match the imported order to the cent', () => {
    spec(topUpOrderDecider)
      .given([imported()])
      .when(confirm(7.31))
      .thenRejects('topup.money_mismatch');
  });

  it('an imported failed order refuses a callback; an expired one still takes the money', () => {
    spec(topUpOrderDecider)
      .given([imported({ status: 'failed' })])
      .when(confirm())
      .thenRejects('topup.status_invalid');
    spec(topUpOrderDecider)
      .given([imported({ status: 'expired' })])
      .when(confirm())
      .then([
        {
          type: 'TopUpOrderPaid',
          data: {
            tradeNo: 'USR2NOabc1231700000000',
            userId: 2,
            quota: 5_000_000,
            providerReference: 'epay-77',
            money: 7.3,
            via: 'callback',
            paidTime: NOW_S,
          },
        },
      ]);
  });
});
