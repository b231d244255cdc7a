/**
 * Where a request carries its output ceiling, per wire, and the body with the ceiling set
 * (docs/relay.md "The output ceiling"): a value the client set at or below the ceiling stays as it
 * came, a larger one or a missing one becomes the ceiling.
 */
import { withFields } from '@tollgate/domain';
import type { JsonObject } from './request-body';

/** The request shapes a ceiling goes into: OpenAI's three text endpoints, Anthropic, Gemini. */
export type CeilingWire = 'chat' | 'completions' | 'responses' | 'anthropic' | 'gemini';

/**
 * OpenAI's reasoning models refuse `max_tokens` and take `max_completion_tokens`; the other
 * OpenAI-compatible servers know `max_tokens` (some nothing else), so it is the one added to them.
 */
const COMPLETION_TOKENS_MODELS = /^(o\d|gpt-5)/;

const TOP_FIELD: Record<Exclude<CeilingWire, 'chat' | 'gemini'>, string> = {
  completions: 'max_tokens',
  responses: 'max_output_tokens',
  anthropic: 'max_tokens',
};

const within = (value: unknown, tokens: number): boolean =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= tokens;

/** The fields of `body` (top level) that must become `tokens`: the chat rule above. */
function topFields(
  body: JsonObject,
  wire: Exclude<CeilingWire, 'gemini'>,
  model: string,
): string[] {
  if (wire !== 'chat') return [TOP_FIELD[wire]];
  const present = ['max_completion_tokens', 'max_tokens'].filter((f) => body[f] !== undefined);
  if (present.length > 0) return present;
  return [COMPLETION_TOKENS_MODELS.test(model) ? 'max_completion_tokens' : 'max_tokens'];
}

/** `body` with its ceiling at most `tokens` (the same object when it already is). */
export function bodyWithCeiling(
  body: JsonObject,
  wire: CeilingWire,
  tokens: number,
  model: string,
): JsonObject {
  if (wire === 'gemini') {
    const config = body.generationConfig;
    const current =
      config !== null && typeof config === 'object' && !Array.isArray(config)
        ? (config as JsonObject)
        : {};
    if (within(current.maxOutputTokens, tokens)) return body;
    return withFields(body, { generationConfig: withFields(current, { maxOutputTokens: tokens }) });
  }
  const fields = topFields(body, wire, model).filter((f) => !within(body[f], tokens));
  if (fields.length === 0) return body;
  const next: JsonObject = { ...body };
  for (const field of fields) next[field] = tokens;
  return next;
}

/**
 * The request's bytes with the ceiling: unchanged when it already holds, the field spliced in
 * before the closing brace when only a missing top-level field is added (no re-serialisation of
 * a large prompt), else re-serialised once.
 */
export function rawWithCeiling(
  raw: Buffer,
  body: JsonObject,
  wire: CeilingWire,
  tokens: number,
  model: string,
): { readonly raw: Buffer; readonly body: JsonObject } {
  const next = bodyWithCeiling(body, wire, tokens, model);
  if (next === body) return { raw, body };
  // Only a missing field added (a present one changed would mean none is added).
  const added = Object.keys(next).filter((key) => !(key in body));
  const spliceable = wire !== 'gemini' && added.length === 1 && Object.keys(body).length > 0;
  const end = spliceable ? raw.lastIndexOf(0x7d) : -1; // '}'
  if (end > 0) {
    const insert = Buffer.from(`,${JSON.stringify(added[0])}:${tokens}`, 'utf8');
    return { raw: Buffer.concat([raw.subarray(0, end), insert, raw.subarray(end)]), body: next };
  }
  return { raw: Buffer.from(JSON.stringify(next), 'utf8'), body: next };
}
