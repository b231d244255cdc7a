import { DomainError } from '../shared/domain-error';
import { type OptionDefinition, type OptionKind } from './option-catalogue';

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(key: string, value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    throw invalidJson(key);
  }
}

function invalidJson(key: string): DomainError {
  return key === 'TopupGroupRatio'
    ? new DomainError('option.topup_group_ratio_invalid_json')
    : new DomainError('option.invalid_json', { key });
}

/** The most fallback models one model may list (each one is a full round of attempts). */
export const MAX_MODEL_FALLBACKS = 5;

const URL_PATTERN = /^https?:\/\/[^\s/]+(\/\S*)?$/i;
const DOMAIN_PATTERN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;

/**
 * Whether a PUT without `value` means '' for this option, as in new-api (its forms send such bodies
 * for emptied text fields): text-like kinds only; a switch, a number or a JSON map needs a value.
 */
export function blankWhenAbsent(definition: OptionDefinition): boolean {
  return (
    definition.kind === 'string' ||
    definition.kind === 'text' ||
    definition.kind === 'address' ||
    definition.kind === 'email-list'
  );
}

/**
 * Validates a new value for `key` and returns its stored normal form: addresses lose trailing
 * slashes, the email whitelist is trimmed, lower-cased and de-duplicated.
 */
export function normalizeOptionValue(
  key: string,
  definition: OptionDefinition,
  raw: string,
): string {
  const value = definition.kind === 'text' ? raw : raw.trim();
  switch (definition.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false')
        throw new DomainError('option.invalid_bool', { key });
      return value;
    case 'int':
      return normalizeInt(key, definition, value);
    case 'float':
      return checkFloat(key, definition, value);
    case 'string':
    case 'text':
      if (definition.choices && !definition.choices.includes(value))
        throw invalidChoice(key, definition.choices);
      return value;
    case 'address':
      return normalizeAddress(key, value);
    case 'email-list':
      return normalizeEmailList(value);
    case 'json-object-number':
    case 'json-object-string':
    case 'json-object-int':
    case 'json-model-headers':
    case 'json-chats':
    case 'json-model-fallbacks':
      return checkJson(key, definition.kind, definition.choices, value);
  }
}

const invalidChoice = (key: string, choices: readonly string[]) =>
  new DomainError('option.invalid_choice', { key, choices: choices.join(', ') });

function normalizeInt(key: string, definition: OptionDefinition, value: string): string {
  if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
    throw new DomainError('option.invalid_int', { key });
  const min = definition.min ?? Number.NEGATIVE_INFINITY;
  if (Number(value) < min) throw new DomainError('option.below_minimum', { key, min });
  return String(Number(value));
}

function checkFloat(key: string, definition: OptionDefinition, value: string): string {
  const n = Number(value);
  if (value === '' || !Number.isFinite(n)) throw new DomainError('option.invalid_number', { key });
  const min = definition.min ?? Number.NEGATIVE_INFINITY;
  const max = definition.max ?? Number.POSITIVE_INFINITY;
  if (n < min) throw new DomainError('option.below_minimum', { key, min });
  if (n > max) throw new DomainError('option.above_maximum', { key, max });
  return value;
}

function normalizeAddress(key: string, value: string): string {
  const stripped = value.replace(/\/+$/, '');
  if (stripped !== '' && !URL_PATTERN.test(stripped))
    throw new DomainError('option.invalid_address', { key });
  return stripped;
}

function normalizeEmailList(value: string): string {
  const entries = value
    .split(/[,\n]/)
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
  const unique = [...new Set(entries)];
  const bad = unique.find((entry) => !DOMAIN_PATTERN.test(entry));
  if (bad !== undefined) throw new DomainError('option.invalid_email_domain', { domain: bad });
  return unique.join(',');
}

type JsonKind = Extract<OptionKind, `json-${string}`>;

/** The shape each JSON kind must parse to; the value itself is stored as sent. */
const JSON_SHAPES: Record<JsonKind, (parsed: unknown) => boolean> = {
  'json-object-number': (parsed) =>
    isPlainObject(parsed) &&
    Object.values(parsed).every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0),
  'json-object-string': (parsed) =>
    isPlainObject(parsed) && Object.values(parsed).every((v) => typeof v === 'string'),
  // new-api's model → max_tokens map: whole numbers, none negative.
  'json-object-int': (parsed) =>
    isPlainObject(parsed) &&
    Object.values(parsed).every((v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0),
  // new-api's model → header name → list of values.
  'json-model-headers': (parsed) =>
    isPlainObject(parsed) &&
    Object.values(parsed).every(
      (headers) =>
        isPlainObject(headers) &&
        Object.values(headers).every(
          (values) => Array.isArray(values) && values.every((v) => typeof v === 'string'),
        ),
    ),
  // Model → ordered fallback models: non-empty names, at most MAX_MODEL_FALLBACKS, never itself.
  'json-model-fallbacks': (parsed) =>
    isPlainObject(parsed) &&
    Object.entries(parsed).every(
      ([model, fallbacks]) =>
        model.trim() !== '' &&
        Array.isArray(fallbacks) &&
        fallbacks.length <= MAX_MODEL_FALLBACKS &&
        fallbacks.every((f) => typeof f === 'string' && f.trim() !== '' && f !== model),
    ),
  'json-chats': (parsed) =>
    Array.isArray(parsed) &&
    parsed.every(
      (item) => isPlainObject(item) && Object.values(item).every((v) => typeof v === 'string'),
    ),
};

function checkJson(
  key: string,
  kind: JsonKind,
  choices: readonly string[] | undefined,
  value: string,
): string {
  const parsed = parseJson(key, value);
  if (!JSON_SHAPES[kind](parsed)) throw invalidJson(key);
  // A map of strings with choices: each non-empty value must be one of them.
  if (kind === 'json-object-string' && choices) {
    const bad = Object.values(parsed as Record<string, string>).find(
      (v) => v !== '' && !choices.includes(v),
    );
    if (bad !== undefined) throw invalidChoice(key, choices);
  }
  return value;
}
