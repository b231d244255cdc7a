import { TopUpStatus, type TopUpProvider, type TopUpStatusValue } from '@tollgate/contracts';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import { priceTopUp, toCents, type TopUpPricingInput } from './topup-pricing';
import type { TopUpOrderEvent, TopUpOrderImported } from './topup.events';

export interface TopUpOrderState {
  readonly exists: boolean;
  readonly tradeNo: string;
  readonly userId: number;
  readonly provider: TopUpProvider | '';
  readonly amount: number;
  readonly money: number;
  readonly quota: number;
  readonly status: TopUpStatusValue;
}

export const initialTopUpOrderState: TopUpOrderState = {
  exists: false,
  tradeNo: '',
  userId: 0,
  provider: '',
  amount: 0,
  money: 0,
  quota: 0,
  status: TopUpStatus.Pending,
};

export type TopUpOrderCommand =
  | ({
      readonly type: 'CreateTopUpOrder';
      readonly tradeNo: string;
      readonly userId: number;
      readonly provider: TopUpProvider;
      readonly paymentMethod: string;
    } & TopUpPricingInput)
  | {
      /** A verified provider callback says the money arrived. */
      readonly type: 'ConfirmTopUpPayment';
      readonly providerReference: string;
      /** The money the provider reports; must equal the order's to the cent. */
      readonly money: number;
      /** When given, must be the order's provider. */
      readonly provider?: TopUpProvider;
    }
  /** An order taken over from new-api (decides nothing on a stream holding an order). */
  | { readonly type: 'ImportTopUpOrder'; readonly order: TopUpOrderImported['data'] }
  | { readonly type: 'CompleteTopUpOrder' }
  | { readonly type: 'ExpireTopUpOrder' }
  | { readonly type: 'FailTopUpOrder'; readonly reason: string };

/** Trade numbers are the stream's id: letters, digits, '_' and '-' only, 1..64 characters. */
export const TRADE_NO_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function evolveTopUpOrder(state: TopUpOrderState, event: TopUpOrderEvent): TopUpOrderState {
  switch (event.type) {
    case 'TopUpOrderCreated': {
      const d = event.data;
      return {
        exists: true,
        tradeNo: d.tradeNo,
        userId: d.userId,
        provider: d.provider,
        amount: d.amount,
        money: d.money,
        quota: d.quota,
        status: TopUpStatus.Pending,
      };
    }
    case 'TopUpOrderImported': {
      const d = event.data;
      return {
        exists: true,
        tradeNo: d.tradeNo,
        userId: d.userId,
        provider: d.provider,
        amount: d.amount,
        money: d.money,
        quota: d.quota,
        status: d.status,
      };
    }
    case 'TopUpOrderPaid':
      return { ...state, status: TopUpStatus.Success };
    case 'TopUpOrderExpired':
      return { ...state, status: TopUpStatus.Expired };
    case 'TopUpOrderFailed':
      return { ...state, status: TopUpStatus.Failed };
  }
}

function assertExists(state: TopUpOrderState): void {
  if (!state.exists) throw new DomainError('topup.order_not_found');
}

type CommandOf<Type extends TopUpOrderCommand['type']> = Extract<TopUpOrderCommand, { type: Type }>;

/**
 * One order per `topup-<tradeNo>` stream. Paid happens once: a second confirmation (a replayed or
 * concurrent callback) decides nothing, so the credit that follows Paid can only follow once.
 * Each command is decided by its own function below; the switch only dispatches.
 */
export const topUpOrderDecider: Decider<TopUpOrderCommand, TopUpOrderState, TopUpOrderEvent> = {
  initialState: initialTopUpOrderState,
  evolve: evolveTopUpOrder,
  decide(command, state, { now }) {
    const seconds = Math.floor(now.getTime() / 1000);
    switch (command.type) {
      case 'CreateTopUpOrder':
        return decideCreate(command, state, seconds);
      case 'ImportTopUpOrder':
        return decideImport(command, state);
      case 'ConfirmTopUpPayment':
        return decideConfirmPayment(command, state, seconds);
      case 'CompleteTopUpOrder':
        return decideCompleteByAdmin(state, seconds);
      case 'ExpireTopUpOrder':
        return decideExpire(state, seconds);
      case 'FailTopUpOrder':
        return decideFail(command, state, seconds);
    }
  },
};

function decideCreate(
  command: CommandOf<'CreateTopUpOrder'>,
  state: TopUpOrderState,
  seconds: number,
): TopUpOrderEvent[] {
  if (state.exists) throw new DomainError('topup.order_exists');
  if (!TRADE_NO_PATTERN.test(command.tradeNo)) throw new DomainError('topup.trade_no_invalid');
  const priced = priceTopUp(command);
  return [
    {
      type: 'TopUpOrderCreated',
      data: {
        tradeNo: command.tradeNo,
        userId: command.userId,
        provider: command.provider,
        paymentMethod: command.paymentMethod,
        amount: priced.amount,
        money: priced.money,
        quota: priced.quota,
        groupRatio: priced.groupRatio,
        price: priced.price,
        createdTime: seconds,
      },
    },
  ];
}

function decideImport(
  command: CommandOf<'ImportTopUpOrder'>,
  state: TopUpOrderState,
): TopUpOrderEvent[] {
  // A rerun of the import (or a stream an order holds already) records nothing.
  if (state.exists) return [];
  const o = command.order;
  if (!TRADE_NO_PATTERN.test(o.tradeNo)) throw new DomainError('topup.trade_no_invalid');
  if (!Number.isSafeInteger(o.quota) || o.quota < 0) throw new DomainError('topup.amount_invalid');
  return [{ type: 'TopUpOrderImported', data: o }];
}

function decideConfirmPayment(
  command: CommandOf<'ConfirmTopUpPayment'>,
  state: TopUpOrderState,
  seconds: number,
): TopUpOrderEvent[] {
  assertExists(state);
  if (command.provider !== undefined && command.provider !== state.provider)
    throw new DomainError('topup.provider_mismatch');
  // A replayed callback of a paid order: nothing to decide, nothing to credit again.
  if (state.status === TopUpStatus.Success) return [];
  if (state.status === TopUpStatus.Failed) throw new DomainError('topup.status_invalid');
  if (!Number.isFinite(command.money) || toCents(command.money) !== toCents(state.money))
    throw new DomainError('topup.money_mismatch');
  return [
    {
      type: 'TopUpOrderPaid',
      data: {
        tradeNo: state.tradeNo,
        userId: state.userId,
        quota: state.quota,
        providerReference: command.providerReference.slice(0, 200),
        money: toCents(command.money) / 100,
        via: 'callback',
        paidTime: seconds,
      },
    },
  ];
}

/** An administrator marks the order paid by hand (no provider reference). */
function decideCompleteByAdmin(state: TopUpOrderState, seconds: number): TopUpOrderEvent[] {
  assertExists(state);
  if (state.status === TopUpStatus.Success) throw new DomainError('topup.already_completed');
  return [
    {
      type: 'TopUpOrderPaid',
      data: {
        tradeNo: state.tradeNo,
        userId: state.userId,
        quota: state.quota,
        providerReference: '',
        money: state.money,
        via: 'admin',
        paidTime: seconds,
      },
    },
  ];
}

function decideExpire(state: TopUpOrderState, seconds: number): TopUpOrderEvent[] {
  assertExists(state);
  if (state.status !== TopUpStatus.Pending) return [];
  return [
    {
      type: 'TopUpOrderExpired',
      data: { tradeNo: state.tradeNo, userId: state.userId, expiredTime: seconds },
    },
  ];
}

function decideFail(
  command: CommandOf<'FailTopUpOrder'>,
  state: TopUpOrderState,
  seconds: number,
): TopUpOrderEvent[] {
  assertExists(state);
  if (state.status !== TopUpStatus.Pending) return [];
  return [
    {
      type: 'TopUpOrderFailed',
      data: {
        tradeNo: state.tradeNo,
        userId: state.userId,
        reason: command.reason.slice(0, 200),
        failedTime: seconds,
      },
    },
  ];
}
