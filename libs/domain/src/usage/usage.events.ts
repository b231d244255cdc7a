import type { DomainEvent } from '../shared/decider';

/**
 * The receipt of one relayed request that was billed: appended once per request to a partitioned
 * `usage-<process>-<hour>` stream (expected revision `any`, event id derived from `requestId`, so a
 * retried append is idempotent). Never folded by a command. Balances, token and channel counters,
 * the consumption log rows and the hourly statistics all follow from these events.
 */
/** Why a call moved on to a fallback model (docs/relay.md "Model fallbacks"). */
export type ModelFallbackReason = 'failed' | 'context_window' | 'content_filter';

export type RequestRelayed = DomainEvent<
  'RequestRelayed',
  {
    readonly requestId: string;
    readonly userId: number;
    /** 0 for the playground, which bills the user without a token. */
    readonly tokenId: number;
    readonly tokenName: string;
    /** The group whose ratio was applied. */
    readonly group: string;
    /** The model the client asked for: billing and the log use this name. */
    readonly model: string;
    /** The name sent upstream after the channel's model mapping. */
    readonly upstreamModel: string;
    /** The channel that answered. */
    readonly channelId: number;
    /** Every channel tried for this request, in order (the last one answered). */
    readonly channelChain: readonly number[];
    /** Relay route, e.g. `/v1/chat/completions`. */
    readonly endpoint: string;
    readonly promptTokens: number;
    readonly completionTokens: number;
    readonly cachedTokens: number;
    /** Part of promptTokens written to the provider's cache (Anthropic); absent on older receipts. */
    readonly cacheCreationTokens?: number;
    /** Part of completionTokens the model spent reasoning (shown, billed as completion). */
    readonly reasoningTokens?: number;
    /** Quota units charged (500000 = $1). */
    readonly quota: number;
    /** What was reserved before relaying; the book settles `quota - reserved`. */
    readonly reserved: number;
    /** Scale-out: the lease on the user's balance the charge was spent from (docs/scale-out.md). */
    readonly leaseId?: string;
    /** Scale-out: the lease on the (limited) token's quota it was spent from. */
    readonly tokenLeaseId?: string;
    /** Scale-out: the lease on the user's periodic budget it was spent from (docs/budgets.md). */
    readonly budgetLeaseId?: string;
    /** Scale-out: the lease on the token's periodic budget it was spent from. */
    readonly tokenBudgetLeaseId?: string;
    /**
     * The output ceiling sent upstream when it was lowered below the asked one (the client's
     * max_tokens, else the model's maximum) to what `loweredBy` could still pay for.
     */
    readonly loweredCeiling?: number;
    readonly loweredBy?: 'user_quota' | 'token_quota' | 'token_budget' | 'user_budget';
    /**
     * Quota charged past the reservation (the answer cost more than its ceiling's price): the
     * payer's balance, token quota or budget went that much further down, below 0 if need be.
     */
    readonly overrun?: number;
    /** The upstream wrote more output than the ceiling it was sent. */
    readonly ceilingIgnored?: boolean;
    /** The stream was cut when its output passed what the reservation covers. */
    readonly streamCut?: boolean;
    /** The members the answering channel's parameter override set on the upstream body. */
    readonly paramOverride?: readonly string[];
    /**
     * A fallback model answered (then `model` is that one, billed at its price): the model the
     * client asked for and why the call moved on from it.
     */
    readonly requestedModel?: string;
    readonly fallbackReason?: ModelFallbackReason;
    readonly modelRatio: number;
    readonly completionRatio: number;
    readonly groupRatio: number;
    readonly cacheRatio: number;
    /** The cache-write multiplier applied; absent on older receipts. */
    readonly cacheCreationRatio?: number;
    /** USD per call in price mode; -1 in ratio mode. */
    readonly modelPrice: number;
    readonly useTimeMs: number;
    /** Time to the first streamed byte; null when not streamed. */
    readonly firstTokenMs: number | null;
    readonly stream: boolean;
    /** True when the upstream gave no usage and the tokens were counted locally. */
    readonly estimated: boolean;
    readonly ip: string;
    /**
     * A Midjourney or Suno submission's charge (appended on its `task-<id>` stream with the
     * TaskSubmitted event): the log row names the action and the upstream task id.
     */
    readonly task?: {
      readonly platform: 'midjourney' | 'suno';
      readonly action: string;
      readonly upstreamTaskId: string;
    };
  }
>;

export type UsageEvent = RequestRelayed;

export const USAGE_EVENT_TYPES: readonly UsageEvent['type'][] = ['RequestRelayed'];

/** Usage streams: `usage-<processId>-<yyyymmddhh>` (UTC hour), so no stream grows without bound. */
export function usageStreamId(processId: string, at: Date): string {
  const hour = at.toISOString().slice(0, 13).replace(/[-T]/g, '');
  return `usage-${processId}-${hour}`;
}
