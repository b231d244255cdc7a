import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
import type { SealedSecret } from '../options/options.events';
import type { BudgetPeriod } from '../billing/budget-period';

/** Everything a token's owner can edit (create and full update). */
export interface TokenSettings {
  readonly name: string;
  /** Unix seconds; -1 = never. */
  readonly expiredTime: number;
  /** Quota cap of the token (the last value set; charges come from the usage streams). */
  readonly remainQuota: number;
  readonly unlimitedQuota: boolean;
  readonly modelLimitsEnabled: boolean;
  readonly modelLimits: readonly string[];
  /** IPs and CIDRs. */
  readonly allowIps: readonly string[];
  /** '' = the owner's group. */
  readonly group: string;
  /** 0 = no limit. */
  readonly rateLimits: { readonly rpm: number; readonly tpm: number; readonly concurrency: number };
  /**
   * The periodic budget (docs/budgets.md), present only when set: quota units per `period`.
   * Absent (every event before budgets existed) = no budget.
   */
  readonly periodQuota?: number;
  readonly period?: BudgetPeriod;
  /**
   * Present (false) only when the token's clients never get a fallback model (docs/relay.md
   * "Model fallbacks"). Absent (every event before fallbacks existed) = they may.
   */
  readonly modelFallback?: false;
}

export type TokenStatusReason = 'user' | 'expired' | 'exhausted';

/** The key is sealed (AES-256-GCM) plus its SHA-256 for lookup; never in clear. */
export type TokenCreated = DomainEvent<
  'TokenCreated',
  TokenSettings & {
    readonly tokenId: number;
    readonly userId: number;
    readonly sealedKey: SealedSecret;
    readonly keyHash: string;
    /** Unix seconds. */
    readonly createdTime: number;
  }
>;
export type TokenUpdated = DomainEvent<
  'TokenUpdated',
  TokenSettings & { readonly tokenId: number; readonly userId: number }
>;
export type TokenStatusChanged = DomainEvent<
  'TokenStatusChanged',
  {
    readonly tokenId: number;
    readonly userId: number;
    readonly from: number;
    readonly to: number;
    readonly reason: TokenStatusReason;
  }
>;
export type TokenDeleted = DomainEvent<
  'TokenDeleted',
  { readonly tokenId: number; readonly userId: number; readonly keyHash: string }
>;

/**
 * A one-api / new-api token taken over with its key (sealed + SHA-256 of the 48 characters the
 * source stored, without `sk-`, as ours are), its status, the quota it had left (`remainQuota`,
 * the cap from here on) and what it had used. A token deleted at the source comes in deleted.
 */
export type TokenImported = DomainEvent<
  'TokenImported',
  TokenSettings & {
    readonly tokenId: number;
    readonly userId: number;
    readonly sealedKey: SealedSecret;
    readonly keyHash: string;
    /** Unix seconds. */
    readonly createdTime: number;
    /** 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
    readonly status: number;
    readonly usedQuota: number;
    readonly deleted: boolean;
    readonly source: ImportSource;
  }
>;

export type TokenEvent =
  TokenCreated | TokenUpdated | TokenStatusChanged | TokenDeleted | TokenImported;

export const TOKEN_EVENT_TYPES: readonly TokenEvent['type'][] = [
  'TokenCreated',
  'TokenUpdated',
  'TokenStatusChanged',
  'TokenDeleted',
  'TokenImported',
];
