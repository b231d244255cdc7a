/**
 * Anthropic's extended thinking against the hub's `reasoning_effort`, both ways, and the rule that
 * keeps a conversation replayable: a `thinking` block Tollgate made from another provider's
 * reasoning carries no signature, and an unsigned block is never sent to Anthropic (which refuses
 * it). docs/providers.md#reasoning.
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from '../../openai/request-body';
import { isObject, objects } from '../json-parts';
import { CLAUDE_THINKING_BUDGET_RATIO } from '../provider-settings';
import { budgetOfEffort, effortOfBudget } from '../reasoning-effort';

/** Anthropic refuses a thinking budget under 1024 tokens. */
export const MIN_THINKING_BUDGET = 1024;
/** new-api's floor for max_tokens with thinking: the minimum budget and room for an answer. */
export const THINKING_MIN_MAX_TOKENS = 1280;
/** Models that refuse `thinking.type: enabled` and take adaptive thinking at an effort instead. */
const ADAPTIVE_ONLY = ['claude-opus-4-7', 'claude-opus-4-8'];
/** Anthropic's `output_config.effort` levels. */
const ANTHROPIC_EFFORTS = new Set(['low', 'medium', 'high', 'max']);

export const takesAdaptiveThinkingOnly = (model: string): boolean =>
  ADAPTIVE_ONLY.some((prefix) => model.startsWith(prefix));

/** Anthropic allows neither a temperature, a top_k nor a top_p below 0.95 with thinking. */
function withoutSamplingLimits(body: JsonObject): JsonObject {
  const out = { ...body };
  delete out.temperature;
  delete out.top_k;
  delete out.top_p;
  return out;
}

/**
 * A Messages body with the thinking an OpenAI `reasoning_effort` asks for. Like OpenAI's own
 * max_completion_tokens, max_tokens bounds thinking and answer together: the budget is the effort's
 * (1K/8K/24K), at most `budgetRatio` of max_tokens (the answer keeps the rest), at least Anthropic's
 * 1024 (max_tokens raised to 1280 when lower, as new-api does). Unchanged when the body already
 * states thinking, the effort is absent, unknown or `none`, or a tool is forced (Anthropic refuses
 * thinking with a forced tool; the tool wins).
 */
export function withEffortThinking(
  body: JsonObject,
  effort: unknown,
  budgetRatio = CLAUDE_THINKING_BUDGET_RATIO,
): JsonObject {
  if (body.thinking !== undefined) return body;
  const wanted = budgetOfEffort(effort);
  if (!wanted) return body;
  const choice = isObject(body.tool_choice) ? body.tool_choice.type : undefined;
  if (choice === 'any' || choice === 'tool') return body;
  const out = withoutSamplingLimits(body);
  const model = typeof body.model === 'string' ? body.model : '';
  if (takesAdaptiveThinkingOnly(model)) {
    out.thinking = { type: 'adaptive' };
    const level = effort === 'xhigh' ? 'max' : effort === 'minimal' ? 'low' : String(effort);
    out.output_config = { effort: ANTHROPIC_EFFORTS.has(level) ? level : 'high' };
    return out;
  }
  const asked = typeof body.max_tokens === 'number' ? body.max_tokens : 0;
  const maxTokens = Math.max(asked, THINKING_MIN_MAX_TOKENS);
  const ratio = budgetRatio > 0 && budgetRatio < 1 ? budgetRatio : CLAUDE_THINKING_BUDGET_RATIO;
  const budget = Math.max(MIN_THINKING_BUDGET, Math.min(wanted, Math.floor(maxTokens * ratio)));
  out.max_tokens = maxTokens;
  out.thinking = { type: 'enabled', budget_tokens: budget };
  return out;
}

/**
 * The `reasoning_effort` of an Anthropic client's thinking: enabled by its budget (as new-api and
 * claude-code-router grade it), adaptive by `output_config.effort` (medium when none), disabled or
 * absent as nothing (a model that does not reason would refuse even `none`).
 */
export function effortOfThinking(thinking: unknown, outputConfig: unknown): string | undefined {
  if (!isObject(thinking)) return undefined;
  if (thinking.type === 'enabled') {
    const budget = typeof thinking.budget_tokens === 'number' ? thinking.budget_tokens : undefined;
    return budget === undefined ? 'medium' : effortOfBudget(Math.max(budget, 1));
  }
  if (thinking.type === 'adaptive') {
    const effort = isObject(outputConfig) ? outputConfig.effort : undefined;
    if (effort === 'max') return 'high';
    return effort === 'low' || effort === 'medium' || effort === 'high' ? effort : 'medium';
  }
  return undefined;
}

/** A thinking block Anthropic would refuse: one without a signature (Tollgate's conversions). */
const unsigned = (block: JsonObject): boolean =>
  block.type === 'thinking' && (typeof block.signature !== 'string' || block.signature === '');

/**
 * The Messages body without the unsigned thinking blocks of its assistant turns (a conversation
 * that went through another provider, replayed to Anthropic); the same object when it has none.
 */
export function withoutUnsignedThinking<T extends Record<string, unknown>>(body: T): T {
  const messages = objects(body.messages);
  const affected = messages.some(
    (m) => m.role === 'assistant' && objects(m.content).some(unsigned),
  );
  if (!affected) return body;
  const kept: JsonObject[] = [];
  for (const m of messages) {
    if (m.role !== 'assistant' || !Array.isArray(m.content)) kept.push(m);
    else {
      const content = objects(m.content).filter((block) => !unsigned(block));
      // A turn that was thinking only would be empty, which Anthropic refuses: it goes.
      if (content.length > 0) kept.push(withFields(m, { content }));
    }
  }
  return withFields(body, { messages: kept }) as T;
}
