/**
 * new-api's `claude.*` settings applied to a Messages request, wherever Claude is the upstream
 * (Anthropic, Bedrock, Vertex): the default max_tokens, the `-thinking` model adapter and the
 * per-model extra headers. Pure; the settings come parsed (provider-settings.ts).
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from '../../openai/request-body';
import { CLAUDE_DEFAULT_MAX_TOKENS, type ClaudeSettings } from '../provider-settings';
import { type ClaudeJsonMode, withJsonMode } from './anthropic-json-mode';
import { anthropicRequestOf } from './anthropic-request';
import { takesAdaptiveThinkingOnly, THINKING_MIN_MAX_TOKENS } from './anthropic-thinking';

const THINKING_SUFFIX = '-thinking';

/** The max_tokens a request without one gets for `model` (the upstream model, before any cut). */
export function claudeDefaultMaxTokens(claude: ClaudeSettings, model: string): number {
  return (
    claude.defaultMaxTokens[model] ?? claude.defaultMaxTokens.default ?? CLAUDE_DEFAULT_MAX_TOKENS
  );
}

/**
 * `<model>-thinking` with the adapter on: the base model is sent, with thinking enabled when the
 * request states none (budget = max_tokens × the percentage, max_tokens at least 1280, temperature
 * 1 and no top_p, as Anthropic requires with thinking). Other bodies come back unchanged.
 */
export function withThinkingAdapter(body: JsonObject, claude: ClaudeSettings): JsonObject {
  const model = typeof body.model === 'string' ? body.model : '';
  if (!claude.thinkingAdapter || !model.endsWith(THINKING_SUFFIX)) return body;
  const base = model.slice(0, -THINKING_SUFFIX.length);
  const out: JsonObject = withFields(body, { model: base });
  if (body.thinking !== undefined && body.thinking !== null) return out;
  if (takesAdaptiveThinkingOnly(base)) {
    out.thinking = { type: 'adaptive', display: 'summarized' };
    out.output_config = { effort: 'high' };
    delete out.temperature;
    delete out.top_p;
    delete out.top_k;
    return out;
  }
  let maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  if (maxTokens < THINKING_MIN_MAX_TOKENS) maxTokens = THINKING_MIN_MAX_TOKENS;
  const budget = Math.floor(maxTokens * claude.thinkingBudgetRatio);
  // The budget must stay under max_tokens (a percentage of 1 or more would reach it).
  if (budget >= maxTokens) maxTokens = budget + 1;
  out.max_tokens = maxTokens;
  out.thinking = { type: 'enabled', budget_tokens: budget };
  out.temperature = 1;
  delete out.top_p;
  return out;
}

/**
 * The Messages body for an OpenAI hub body, with the settings applied when there are any, and its
 * `response_format` last (whether `{` may be prefilled depends on the thinking decided before).
 */
export function claudeMessagesBody(
  openai: JsonObject,
  upstreamModel: string,
  stream: boolean,
  claude: ClaudeSettings | undefined,
): ClaudeJsonMode {
  const maxTokens = claude ? claudeDefaultMaxTokens(claude, upstreamModel) : undefined;
  const body = anthropicRequestOf(
    withFields(openai, { stream }),
    upstreamModel,
    maxTokens,
    claude?.thinkingBudgetRatio,
  );
  return withJsonMode(claude ? withThinkingAdapter(body, claude) : body, openai.response_format);
}

/** A header list's items, split at commas, trimmed, first occurrence kept. */
function mergedList(values: readonly (string | undefined)[]): string {
  const seen = new Set<string>();
  for (const value of values) {
    for (const item of (value ?? '').split(',')) {
      const trimmed = item.trim();
      if (trimmed !== '') seen.add(trimmed);
    }
  }
  return [...seen].join(',');
}

/**
 * Adds the headers `claude.model_headers_settings` names for the client's model to `headers`
 * (lower-case names), merged with a value already there (the client's `anthropic-beta`).
 */
export function addClaudeModelHeaders(
  headers: Record<string, string>,
  claude: ClaudeSettings | undefined,
  clientModel: string,
): void {
  const extra = claude?.headers[clientModel];
  if (!extra) return;
  for (const [name, values] of Object.entries(extra)) {
    const merged = mergedList([headers[name], ...values]);
    if (merged !== '') headers[name] = merged;
  }
}
