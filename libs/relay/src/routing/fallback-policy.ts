/**
 * When a model whose every channel failed moves on to its fallback models (LiteLLM's router and
 * Portkey do the same): a failure another channel could have outlived, or, each behind its own
 * switch, a refusal another model may not give (a prompt past the context window, a content
 * filter).
 */
import type { ModelFallbackReason } from '@tollgate/domain';
import { type AttemptFailure, shouldRetry, type StatusRanges } from './failure-policy';

/** Why a call moved on to a fallback model (the receipt's `fallbackReason`). */
export type FallbackReason = ModelFallbackReason;

export interface FallbackSwitches {
  /** ModelFallbackOnContextWindow */
  readonly onContextWindow: boolean;
  /** ModelFallbackOnContentFilter */
  readonly onContentFilter: boolean;
  /** AutomaticRetryStatusCodes: the statuses a retry (and so a fallback) follows. */
  readonly ranges?: StatusRanges;
}

/** Statuses a refusal of the request itself comes with (OpenAI 400, some proxies 413/422). */
const REFUSAL_STATUSES = new Set([400, 413, 422]);
const CONTEXT_WINDOW_CODES = new Set(['context_length_exceeded', 'string_above_max_length']);
const CONTEXT_WINDOW_MESSAGE =
  /(context[ _-]?(length|window)[^.]{0,40}exceed|exceed[^.]{0,40}context[ _-]?(length|window)|maximum context length|prompt is too long)/i;
const CONTENT_FILTER_CODES = new Set([
  'content_filter',
  'content_policy_violation',
  'content_filtered',
  'responsibleaipolicyviolation',
]);

/** The reason to try the next fallback model after this failure, or undefined to stop. */
export function fallbackReason(
  failure: AttemptFailure,
  switches: FallbackSwitches,
): FallbackReason | undefined {
  if (isContextWindowRefusal(failure))
    return switches.onContextWindow ? 'context_window' : undefined;
  if (isContentFilterRefusal(failure))
    return switches.onContentFilter ? 'content_filter' : undefined;
  // The classes a retry would follow, whatever retries were left.
  const retryable = shouldRetry(failure, {
    retriesLeft: 1,
    pinned: false,
    ranges: switches.ranges,
  });
  return retryable ? 'failed' : undefined;
}

/** An upstream 400 saying the prompt does not fit the model's context window. */
export function isContextWindowRefusal(failure: AttemptFailure): boolean {
  if (failure.kind !== 'http' || !REFUSAL_STATUSES.has(failure.status)) return false;
  return CONTEXT_WINDOW_CODES.has(failure.code) || CONTEXT_WINDOW_MESSAGE.test(failure.message);
}

/** An upstream refusal by the provider's content filter (OpenAI, Azure). */
export function isContentFilterRefusal(failure: AttemptFailure): boolean {
  if (failure.kind !== 'http' || failure.status < 400 || failure.status >= 500) return false;
  return [failure.code, failure.type].some((c) => CONTENT_FILTER_CODES.has(c.toLowerCase()));
}

/**
 * ModelFallbacks parsed: model → its fallback models in order. The option is validated on write;
 * an entry of another shape (an older file, a hand edit) is skipped.
 */
export function parseModelFallbacks(text: string): ReadonlyMap<string, readonly string[]> {
  const fallbacks = new Map<string, readonly string[]>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return fallbacks;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fallbacks;
  for (const [model, list] of Object.entries(parsed)) {
    if (!Array.isArray(list)) continue;
    const models = list.filter((m): m is string => typeof m === 'string' && m !== model);
    if (models.length > 0) fallbacks.set(model, models);
  }
  return fallbacks;
}
