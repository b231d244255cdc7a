import type { DomainEvent } from '../shared/decider';
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
  }
>;
export type ChannelBalanceUpdated = DomainEvent<
  'ChannelBalanceUpdated',
  { channelId: number; balance: number; updatedTime: number }
>;
export type ChannelDeleted = DomainEvent<'ChannelDeleted', { channelId: number }>;

export type ChannelEvent =
  | ChannelCreated
  | ChannelUpdated
  | ChannelStatusChanged
  | ChannelTested
  | ChannelBalanceUpdated
  | ChannelDeleted;

export const CHANNEL_EVENT_TYPES: readonly ChannelEvent['type'][] = [
  'ChannelCreated',
  'ChannelUpdated',
  'ChannelStatusChanged',
  'ChannelTested',
  'ChannelBalanceUpdated',
  'ChannelDeleted',
];

export const channelStreamId = (channelId: number) => `channel-${channelId}`;
