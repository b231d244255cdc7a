import type { TopUpProvider, TopUpStatusValue } from '@tollgate/contracts';
import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';

/** An order was opened: what the user asked, what they pay and what will be credited. */
export type TopUpOrderCreated = DomainEvent<
  'TopUpOrderCreated',
  {
    readonly tradeNo: string;
    readonly userId: number;
    readonly provider: TopUpProvider;
    /** 'alipay', 'wxpay', … (Epay) or 'stripe'. */
    readonly paymentMethod: string;
    /** Top-up units asked for. */
    readonly amount: number;
    /** What the user pays, in the price's currency, rounded to cents. */
    readonly money: number;
    /** Quota to credit: amount × QuotaPerUnit. */
    readonly quota: number;
    /** The user's group's TopupGroupRatio at creation. */
    readonly groupRatio: number;
    /** The unit price used (Price for Epay). */
    readonly price: number;
    /** Unix seconds. */
    readonly createdTime: number;
  }
>;

/**
 * The money arrived (a verified provider callback) or an administrator completed the order by hand.
 * Appended once: the order stream's expected revision decides between concurrent callbacks. The
 * credit (QuotaGranted reason 'topup', reference `topup-<tradeNo>`) follows on the user's billing
 * stream, caused by this event.
 */
export type TopUpOrderPaid = DomainEvent<
  'TopUpOrderPaid',
  {
    readonly tradeNo: string;
    readonly userId: number;
    readonly quota: number;
    /** The provider's reference (Epay trade_no, Stripe session id); '' when completed by hand. */
    readonly providerReference: string;
    /** The money the provider confirmed (the order's money when completed by hand). */
    readonly money: number;
    /** 'callback' or 'admin' (the admin is the event's actor). */
    readonly via: 'callback' | 'admin';
    /** Unix seconds. */
    readonly paidTime: number;
  }
>;

export type TopUpOrderExpired = DomainEvent<
  'TopUpOrderExpired',
  { readonly tradeNo: string; readonly userId: number; readonly expiredTime: number }
>;

export type TopUpOrderFailed = DomainEvent<
  'TopUpOrderFailed',
  {
    readonly tradeNo: string;
    readonly userId: number;
    readonly reason: string;
    readonly failedTime: number;
  }
>;

/**
 * An order taken over from a new-api database (`top_ups` row). A pending one can still be paid once
 * through the usual confirmation (its credit follows as for a live order); a successful one credits
 * nothing (its credit is inside the imported user quota) and is never paid again.
 */
export type TopUpOrderImported = DomainEvent<
  'TopUpOrderImported',
  {
    readonly tradeNo: string;
    readonly userId: number;
    /** new-api's top_ups rows are Epay orders. */
    readonly provider: TopUpProvider;
    /** Not recorded by new-api: ''. */
    readonly paymentMethod: string;
    readonly amount: number;
    readonly money: number;
    /** What paying it credits: amount × QuotaPerUnit (the source's). */
    readonly quota: number;
    /** Unix seconds. */
    readonly createdTime: number;
    readonly status: TopUpStatusValue;
    readonly source: ImportSource;
  }
>;

export type TopUpOrderEvent =
  TopUpOrderCreated | TopUpOrderImported | TopUpOrderPaid | TopUpOrderExpired | TopUpOrderFailed;

export const TOPUP_ORDER_EVENT_TYPES: readonly TopUpOrderEvent['type'][] = [
  'TopUpOrderCreated',
  'TopUpOrderImported',
  'TopUpOrderPaid',
  'TopUpOrderExpired',
  'TopUpOrderFailed',
];

/** The reference a top-up's QuotaGranted carries: the order's stream name. */
export const topUpReference = (tradeNo: string): string => `topup-${tradeNo}`;
