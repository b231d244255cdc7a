import { type ChannelStatusValue } from '@tollgate/contracts';
import type { DomainEvent } from '../shared/decider';
import type { ImportSource } from '../shared/import-source';
import type { SealedSecret } from '../options/options.events';

/** Everything an admin configures on a channel except the key (normalized, validated). */
export interface ChannelConfig {
  readonly type: number;
  readonly name: string;
  /** No trailing slash; '' = the type's default. */
  readonly baseUrl: string;
  readonly other: string;
  readonly models: readonly string[];
  readonly groups: readonly string[];
  /** JSON object text or ''. */
  readonly modelMapping: string;
  /** JSON object text or ''. */
  readonly statusCodeMapping: string;
  readonly priority: number;
  readonly weight: number;
  readonly autoBan: boolean;
  readonly testModel: string;
  readonly openaiOrganization: string;
  readonly maxInputTokens: number;
  readonly tag: string;
  /** JSON object text or ''. */
  readonly setting: string;
  /**
   * JSON object text or '': members set on every request body the channel is sent
   * (param-override.ts). Absent on events recorded before channels had it.
   */
  readonly paramOverride?: string;
}

/** A channel came to be (created by an admin, one per key line, or copied from another). */
export type ChannelCreated = DomainEvent<
  'ChannelCreated',
  {
    channelId: number;
    config: ChannelConfig;
    /** The provider key: sealed, never in clear. */
    key: SealedSecret;
    status: 1 | 2;
    /** Unix seconds. */
    createdTime: number;
    copiedFrom?: number;
  }
>;
/** Only the fields that changed, with their new values; `key` present when the key was replaced. */
export type ChannelUpdated = DomainEvent<
  'ChannelUpdated',
  { channelId: number; changes: Partial<ChannelConfig>; key?: SealedSecret }
>;
/** 1 enabled, 2 disabled by hand, 3 disabled automatically (`reason` says why). */
export type ChannelStatusChanged = DomainEvent<
  'ChannelStatusChanged',
  {
    channelId: number;
    from: number;
    to: number;
    reason: string;
    time: number;
    /** An automatic disable: the model the failing call or test used (absent on older events). */
    model?: string;
  }
>;
export type ChannelTested = DomainEvent<
  'ChannelTested',
  {
    channelId: number;
    model: string;
    success: boolean;
    /** Milliseconds the test request took. */
    responseTimeMs: number;
    /** The provider's error on failure ('' on success). */
    message: string;
    /** Unix seconds. */
    testTime: number;
    /** A failed test's upstream HTTP status (absent on success, a network failure, older events). */
    status?: number;
  }
>;
export type ChannelBalanceUpdated = DomainEvent<
  'ChannelBalanceUpdated',
  { channelId: number; balance: number; updatedTime: number }
>;
export type ChannelDeleted = DomainEvent<'ChannelDeleted', { channelId: number }>;
/**
 * A channel taken over from a one-api / new-api database, whole: its configuration (type already in
 * new-api's numbering), sealed key, status (2 by hand, 3 automatically, kept apart), the test,
 * balance and usage figures the source had. Appended once per channel stream by the importer.
 */
export type ChannelImported = DomainEvent<
  'ChannelImported',
  {
    channelId: number;
    config: ChannelConfig;
    key: SealedSecret;
    /** 1 enabled, 2 disabled by hand, 3 disabled automatically. */
    status: ChannelStatusValue;
    /** Why it was disabled automatically ('' otherwise). */
    statusReason: string;
    /** Unix seconds of the last status change, 0 when unknown. */
    statusTime: number;
    /** Unix seconds. */
    createdTime: number;
    testTime: number;
    responseTimeMs: number;
    balance: number;
    balanceUpdatedTime: number;
    /** The quota the channel had consumed in the source (the used_quota counter starts here). */
    usedQuota: number;
    /** The type number in the source's own numbering (one-api numbers differ from new-api's). */
    sourceType: number;
    source: ImportSource;
  }
>;

export type ChannelEvent =
  | ChannelCreated
  | ChannelUpdated
  | ChannelStatusChanged
  | ChannelTested
  | ChannelBalanceUpdated
  | ChannelDeleted
  | ChannelImported;

export const CHANNEL_EVENT_TYPES: readonly ChannelEvent['type'][] = [
  'ChannelCreated',
  'ChannelUpdated',
  'ChannelStatusChanged',
  'ChannelTested',
  'ChannelBalanceUpdated',
  'ChannelDeleted',
  'ChannelImported',
];

export const channelStreamId = (channelId: number) => `channel-${channelId}`;
