/**
 * The output ceiling every relayed answer carries to its upstream (docs/relay.md "The output
 * ceiling"): the client's own max_tokens, else the model's maximum output, lowered to what the
 * payer can afford. The reservation prices that ceiling plus the prompt, so it is an upper bound of
 * the charge of any upstream that honours it.
 */
import { chargeFor, type PriceQuote } from './pricing';

/** The `*` entry of ModelMaxOutputTokens: models no other entry names. */
export const ANY_MODEL_KEY = '*';

/** Used when ModelMaxOutputTokens has no `*` entry: accepted by nearly every chat model. */
export const FALLBACK_MAX_OUTPUT_TOKENS = 4096;

/**
 * The least answer worth relaying: a payer who cannot afford the prompt plus this many output
 * tokens is refused (after waiting for their open reservations), not served a stub.
 */
export const OUTPUT_FLOOR_TOKENS = 16;

/**
 * ModelMaxOutputTokens' default: the documented maximum output of the common families. An entry
 * ending in `*` is a prefix (the longest one wins); an exact name beats any prefix; `*` is the
 * default of every other model. Values stay within what the model accepts: a larger max_tokens is
 * refused by most upstreams, a smaller one only shortens the longest answers.
 */
export const DEFAULT_MODEL_MAX_OUTPUT_TOKENS: Readonly<Record<string, number>> = {
  [ANY_MODEL_KEY]: FALLBACK_MAX_OUTPUT_TOKENS,
  'gpt-3.5*': 4096,
  'gpt-4': 4096,
  'gpt-4-*': 4096,
  'gpt-4o*': 16384,
  'gpt-4o-2024-05-13': 4096,
  'chatgpt-4o*': 16384,
  'gpt-4.1*': 32768,
  'gpt-4.5*': 16384,
  'gpt-5*': 128000,
  'o1-mini*': 65536,
  'o1-preview*': 32768,
  'o1*': 100000,
  'o3*': 100000,
  'o4-mini*': 100000,
  'claude-3-haiku*': 4096,
  'claude-3-opus*': 4096,
  'claude-3-sonnet*': 4096,
  'claude-3-5*': 8192,
  'claude-3-7*': 64000,
  'claude-sonnet-4*': 64000,
  'claude-opus-4*': 32000,
  'gemini-1.5*': 8192,
  'gemini-2.0*': 8192,
  'gemini-2.5*': 65536,
  'deepseek-chat': 8192,
  'deepseek-reasoner': 32768,
  'qwen*': 8192,
};

const own = (map: Readonly<Record<string, number>>, key: string): number | undefined => {
  if (!Object.prototype.hasOwnProperty.call(map, key)) return undefined;
  const value = map[key];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
};

/** The model's maximum output from the table: its exact entry, the longest prefix, then `*`. */
export function modelMaxOutput(table: Readonly<Record<string, number>>, model: string): number {
  const exact = own(table, model);
  if (exact !== undefined) return exact;
  let best: { length: number; value: number } | undefined;
  for (const key of Object.keys(table)) {
    if (key.length < 2 || !key.endsWith('*')) continue;
    const prefix = key.slice(0, -1);
    if (!model.startsWith(prefix) || (best && best.length >= prefix.length)) continue;
    const value = own(table, key);
    if (value !== undefined) best = { length: prefix.length, value };
  }
  return best?.value ?? own(table, ANY_MODEL_KEY) ?? FALLBACK_MAX_OUTPUT_TOKENS;
}

/**
 * The reservation of an answer bounded by `ceiling` output tokens per choice: exactly what
 * chargeFor bills when the upstream reports `promptTokens` and writes every choice to the
 * ceiling. Price mode: the price of `calls` calls, whatever the ceiling.
 */
export function ceilingReservation(
  quote: PriceQuote,
  promptTokens: number,
  ceiling: number,
  quotaPerUnit: number,
  choices = 1,
): number {
  const usage = {
    promptTokens,
    completionTokens: quote.mode === 'price' ? 0 : ceiling * choices,
    cachedTokens: 0,
  };
  return chargeFor(quote, usage, quotaPerUnit, quote.mode === 'price' ? choices : 1).quota;
}

/**
 * The largest ceiling (output tokens per choice) whose reservation fits in `quota`, at most
 * `wanted`; 0 when not even the prompt fits. A price that does not grow with the output (price
 * mode, a zero completion or model ratio) affords `wanted` whenever its reservation fits.
 */
export function affordableCeiling(
  quote: PriceQuote,
  promptTokens: number,
  wanted: number,
  quota: number,
  quotaPerUnit: number,
  choices = 1,
): number {
  const cost = (ceiling: number) =>
    ceilingReservation(quote, promptTokens, ceiling, quotaPerUnit, choices);
  if (cost(wanted) <= quota) return wanted;
  const perToken = quote.modelRatio * quote.groupRatio * quote.completionRatio * choices;
  if (quote.mode === 'price' || perToken <= 0) return 0;
  // The closed form, then a step or two to undo the rounding (the charge rounds to whole units).
  const base = quote.modelRatio * quote.groupRatio * promptTokens;
  let ceiling = Math.max(0, Math.min(wanted, Math.floor((quota - base) / perToken)));
  while (ceiling > 0 && cost(ceiling) > quota) ceiling -= 1;
  while (ceiling < wanted && cost(ceiling + 1) <= quota) ceiling += 1;
  return ceiling;
}
