import type { DomainEvent } from '../shared/decider';
import type { SealedSecret } from '../options/options.events';

/** The code is sealed (AES-256-GCM) plus its SHA-256 for lookup; never in clear. */
export type RedemptionCreated = DomainEvent<
  'RedemptionCreated',
  {
    readonly redemptionId: number;
    /** The admin who created it. */
    readonly createdBy: number;
    readonly name: string;
    readonly quota: number;
    readonly sealedKey: SealedSecret;
    readonly keyHash: string;
    /** Unix seconds. */
    readonly createdTime: number;
  }
>;
export type RedemptionUpdated = DomainEvent<
  'RedemptionUpdated',
  { readonly redemptionId: number; readonly name: string; readonly quota: number }
>;
export type RedemptionStatusChanged = DomainEvent<
  'RedemptionStatusChanged',
  { readonly redemptionId: number; readonly from: number; readonly to: number }
>;
/** Redeemed once: the expected revision of the code's stream decides between concurrent tries. */
export type RedemptionRedeemed = DomainEvent<
  'RedemptionRedeemed',
  {
    readonly redemptionId: number;
    readonly userId: number;
    readonly quota: number;
    /** Unix seconds. */
    readonly redeemedTime: number;
  }
>;
export type RedemptionDeleted = DomainEvent<
  'RedemptionDeleted',
  { readonly redemptionId: number; readonly keyHash: string }
>;

export type RedemptionEvent =
  | RedemptionCreated
  | RedemptionUpdated
  | RedemptionStatusChanged
  | RedemptionRedeemed
  | RedemptionDeleted;

export const REDEMPTION_EVENT_TYPES: readonly RedemptionEvent['type'][] = [
  'RedemptionCreated',
  'RedemptionUpdated',
  'RedemptionStatusChanged',
  'RedemptionRedeemed',
  'RedemptionDeleted',
];
