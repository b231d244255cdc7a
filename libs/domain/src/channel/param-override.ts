/**
 * A channel's parameter override (new-api's `param_override`): a JSON object whose top-level
 * members replace the same members of every request body the channel is sent, in its provider's
 * format. Stored as the JSON text the console edits.
 */

/** Longest override text accepted: a handful of parameters, not a second request body. */
export const PARAM_OVERRIDE_MAX_CHARS = 10_000;

/**
 * Members an override may not set. `model`: the client's model is what is priced and routed, so an
 * override would bill one model and serve another (the channel's model mapping is the way to send
 * another name). `stream`: it decides how the answer is framed and metered for the client, so the
 * upstream must answer the way the client asked.
 */
export const PROTECTED_OVERRIDE_KEYS: readonly string[] = ['model', 'stream'];

export type ParamOverrideProblem =
  { readonly kind: 'invalid' } | { readonly kind: 'protected'; readonly keys: readonly string[] };

/** The parsed override, or undefined when `text` is not a JSON object. */
export function parseParamOverride(text: string): Record<string, unknown> | undefined {
  if (text.length > PARAM_OVERRIDE_MAX_CHARS) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The protected members `override` sets. */
export function protectedOverrideKeys(override: Readonly<Record<string, unknown>>): string[] {
  return PROTECTED_OVERRIDE_KEYS.filter((key) => Object.hasOwn(override, key));
}

/** What is wrong with an override text ('' = none, always fine), or undefined. */
export function paramOverrideProblem(text: string): ParamOverrideProblem | undefined {
  if (text === '') return undefined;
  const parsed = parseParamOverride(text);
  if (!parsed) return { kind: 'invalid' };
  const keys = protectedOverrideKeys(parsed);
  return keys.length > 0 ? { kind: 'protected', keys } : undefined;
}

/**
 * The members a stored override text sets on request bodies: {} for '' or text that is not an
 * object, the protected members left out (an imported disabled channel may keep them, and enabling
 * it does not check its configuration again).
 */
export function overridableMembers(text: string): Record<string, unknown> {
  const parsed = text === '' ? undefined : parseParamOverride(text);
  if (!parsed) return {};
  const members = { ...parsed };
  for (const key of protectedOverrideKeys(parsed)) delete members[key];
  return members;
}
