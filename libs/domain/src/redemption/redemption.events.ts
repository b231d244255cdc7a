import { type RedemptionStatus } from '@tollgate/contracts';
import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
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

/**
 * A code taken over from a one-api / new-api database, whole: sealed and hashed the way Tollgate
 * stores its own codes (so the same key redeems here), with its status (1 unused, 2 disabled,
 * 3 used), who redeemed it when the source knows, and whether the source had deleted it.
 */
export type RedemptionImported = DomainEvent<
  'RedemptionImported',
  {
    readonly redemptionId: number;
    /** The creator as the source recorded it (one-api/new-api `user_id`). */
    readonly createdBy: number;
    readonly name: string;
    readonly quota: number;
    readonly status: RedemptionStatus;
    readonly sealedKey: SealedSecret;
    readonly keyHash: string;
    /** Unix seconds. */
    readonly createdTime: number;
    /** Unix seconds; 0 when not redeemed. */
    readonly redeemedTime: number;
    /** new-api `used_user_id`; 0 when unknown (one-api does not record it). */
    readonly usedUserId: number;
    readonly deleted: boolean;
    readonly source: ImportSource;
  }
>;

export type RedemptionEvent =
  | RedemptionCreated
  | RedemptionUpdated
  | RedemptionStatusChanged
  | RedemptionRedeemed
  | RedemptionDeleted
  | RedemptionImported;

export const REDEMPTION_EVENT_TYPES: readonly RedemptionEvent['type'][] = [
  'RedemptionCreated',
  'RedemptionUpdated',
  'RedemptionStatusChanged',
  'RedemptionRedeemed',
  'RedemptionDeleted',
  'RedemptionImported',
];
