/**
 * The one place a relayed request's charge is computed (docs/pricing.md). The relay quotes a price
 * once per request (from the options it holds in memory), reserves the price of its output ceiling
 * (output-ceiling.ts) before relaying and settles `chargeFor(quote, usage)`; the receipt of that
 * charge is what the usage event and the log row carry, so the displayed breakdown and the charged
 * integer cannot drift apart.
 */

import { hasConfiguredPrice } from '@tollgate/contracts';

/** The price options as the relay holds them (parsed once per option change, not per request). */
export interface PriceOptions {
  readonly modelRatio: Readonly<Record<string, number>>;
  readonly completionRatio: Readonly<Record<string, number>>;
  readonly modelPrice: Readonly<Record<string, number>>;
  readonly groupRatio: Readonly<Record<string, number>>;
  /** Multiplier for cached prompt tokens (per model); 1 when absent. */
  readonly cacheRatio: Readonly<Record<string, number>>;
  /**
   * Multiplier for prompt tokens written to the provider's cache (per model; only Anthropic-family
   * upstreams report them); DEFAULT_CACHE_CREATION_RATIO when absent.
   */
  readonly cacheCreationRatio: Readonly<Record<string, number>>;
  /** `SelfUseModeEnabled`: unknown models are billed at SELF_USE_MODEL_RATIO instead of refused. */
  readonly selfUseMode: boolean;
  /**
   * `PreConsumedQuota`: the output tokens reserved for an answer no ceiling can bound (audio
   * transcriptions, embeddings, images priced by tokens): see output-ceiling.ts.
   */
  readonly preConsumedQuota: number;
  /** `QuotaPerUnit`: quota units per USD (500000). */
  readonly quotaPerUnit: number;
}

/** Anthropic's published price of a five-minute cache write: 1.25 × the input price. */
export const DEFAULT_CACHE_CREATION_RATIO = 1.25;

/** What one-api and new-api bill an unknown model at in self-use mode. */
export const SELF_USE_MODEL_RATIO = 37.5;

export type PriceQuote =
  | {
      readonly mode: 'ratio';
      readonly model: string;
      readonly group: string;
      readonly modelRatio: number;
      readonly completionRatio: number;
      readonly groupRatio: number;
      readonly cacheRatio: number;
      readonly cacheCreationRatio: number;
      /** Always -1 in ratio mode (the log's convention). */
      readonly modelPrice: -1;
    }
  | {
      readonly mode: 'price';
      readonly model: string;
      readonly group: string;
      /** USD per call. */
      readonly modelPrice: number;
      readonly groupRatio: number;
      readonly modelRatio: 0;
      readonly completionRatio: 0;
      readonly cacheRatio: 0;
      readonly cacheCreationRatio: 0;
    };

export type QuoteResult =
  | { readonly ok: true; readonly quote: PriceQuote }
  | { readonly ok: false; readonly code: 'model_price_not_configured'; readonly model: string };

export interface TokenUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Part of promptTokens served from the upstream's prompt cache. */
  readonly cachedTokens: number;
  /** Part of promptTokens written to the upstream's prompt cache (Anthropic). */
  readonly cacheCreationTokens?: number;
}

/** The charge and everything needed to explain it (the log's `other` is built from this). */
export interface ChargeReceipt {
  readonly quota: number;
  readonly mode: 'ratio' | 'price';
  readonly modelRatio: number;
  readonly completionRatio: number;
  readonly groupRatio: number;
  readonly cacheRatio: number;
  readonly cacheCreationRatio: number;
  readonly modelPrice: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly cachedTokens: number;
  readonly cacheCreationTokens: number;
}

const own = (map: Readonly<Record<string, number>>, key: string): number | undefined =>
  Object.prototype.hasOwnProperty.call(map, key) && Number.isFinite(map[key])
    ? map[key]
    : undefined;

/** Group ratio of a group; a group missing from GroupRatio bills at 1 (new-api's default). */
export function groupRatioOf(options: PriceOptions, group: string): number {
  return own(options.groupRatio, group) ?? 1;
}

/**
 * The price of `model` for `group`: a ModelPrice entry wins (per-call price); else ModelRatio;
 * else refused unless self-use mode. Billing is always on the requested model name.
 */
export function quotePrice(options: PriceOptions, model: string, group: string): QuoteResult {
  if (!hasConfiguredPrice(options, model) && !options.selfUseMode)
    return { ok: false, code: 'model_price_not_configured', model };
  const groupRatio = groupRatioOf(options, group);
  const price = own(options.modelPrice, model);
  if (price !== undefined && price >= 0) {
    return {
      ok: true,
      quote: {
        mode: 'price',
        model,
        group,
        modelPrice: price,
        groupRatio,
        modelRatio: 0,
        completionRatio: 0,
        cacheRatio: 0,
        cacheCreationRatio: 0,
      },
    };
  }
  const modelRatio = own(options.modelRatio, model) ?? SELF_USE_MODEL_RATIO;
  return {
    ok: true,
    quote: {
      mode: 'ratio',
      model,
      group,
      modelRatio,
      completionRatio: own(options.completionRatio, model) ?? 1,
      groupRatio,
      cacheRatio: own(options.cacheRatio, model) ?? 1,
      cacheCreationRatio: own(options.cacheCreationRatio, model) ?? DEFAULT_CACHE_CREATION_RATIO,
      modelPrice: -1,
    },
  };
}

const whole = (n: number): number => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);

/**
 * The charge for what the upstream reported (or what was counted locally).
 * Ratio mode: round(((prompt − cached − written) + cached × cacheRatio + written ×
 * cacheCreationRatio + completion × completionRatio) × modelRatio × groupRatio), at least 1 when modelRatio × groupRatio ≠ 0 and tokens were used;
 * 0 when no token was used at all (an empty answer costs nothing).
 * Price mode: round(modelPrice × quotaPerUnit × groupRatio) per call (`calls`: images with n > 1),
 * whatever the tokens.
 */
export function chargeFor(
  quote: PriceQuote,
  usage: TokenUsage,
  quotaPerUnit: number,
  calls = 1,
): ChargeReceipt {
  const promptTokens = whole(usage.promptTokens);
  const completionTokens = whole(usage.completionTokens);
  const cachedTokens = Math.min(whole(usage.cachedTokens), promptTokens);
  const cacheCreationTokens = Math.min(
    whole(usage.cacheCreationTokens ?? 0),
    promptTokens - cachedTokens,
  );
  return {
    quota: quotaOf(
      quote,
      quotaPerUnit,
      {
        prompt: promptTokens,
        completion: completionTokens,
        cached: cachedTokens,
        written: cacheCreationTokens,
      },
      calls,
    ),
    mode: quote.mode,
    modelRatio: quote.modelRatio,
    completionRatio: quote.completionRatio,
    groupRatio: quote.groupRatio,
    cacheRatio: quote.cacheRatio,
    cacheCreationRatio: quote.cacheCreationRatio,
    modelPrice: quote.modelPrice,
    promptTokens,
    completionTokens,
    cachedTokens,
    cacheCreationTokens,
  };
}

/** The charged integer of chargeFor (one object built per charge: it runs on every request). */
function quotaOf(
  quote: PriceQuote,
  quotaPerUnit: number,
  tokens: { prompt: number; completion: number; cached: number; written: number },
  calls: number,
): number {
  if (quote.mode === 'price') {
    const perCall = Math.round(quote.modelPrice * quotaPerUnit * quote.groupRatio);
    return perCall * Math.max(1, Math.floor(calls));
  }
  const { prompt, completion, cached, written } = tokens;
  if (prompt + completion === 0) return 0;
  const weighted =
    prompt -
    cached -
    written +
    cached * quote.cacheRatio +
    written * quote.cacheCreationRatio +
    completion * quote.completionRatio;
  const ratio = quote.modelRatio * quote.groupRatio;
  const quota = Math.round(weighted * ratio);
  return ratio !== 0 && quota <= 0 ? 1 : quota;
}
