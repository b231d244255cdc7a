import { DomainError } from '../shared/domain-error';
import { type OptionDefinition } from './option-catalogue';

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
  const min = definition.min ?? Number.NEGATIVE_INFINITY;
  const max = definition.max ?? Number.POSITIVE_INFINITY;
  switch (definition.kind) {
    case 'bool':
      if (value !== 'true' && value !== 'false')
        throw new DomainError('option.invalid_bool', { key });
      return value;
    case 'int': {
      if (!/^-?\d+$/.test(value) || !Number.isSafeInteger(Number(value)))
        throw new DomainError('option.invalid_int', { key });
      if (Number(value) < min) throw new DomainError('option.below_minimum', { key, min });
      return String(Number(value));
    }
    case 'float': {
      const n = Number(value);
      if (value === '' || !Number.isFinite(n))
        throw new DomainError('option.invalid_number', { key });
      if (n < min) throw new DomainError('option.below_minimum', { key, min });
      if (n > max) throw new DomainError('option.above_maximum', { key, max });
      return value;
    }
    case 'string':
    case 'text':
      if (definition.choices && !definition.choices.includes(value))
        throw new DomainError('option.invalid_choice', {
          key,
          choices: definition.choices.join(', '),
        });
      return value;
    case 'address': {
      const stripped = value.replace(/\/+$/, '');
      if (stripped !== '' && !URL_PATTERN.test(stripped))
        throw new DomainError('option.invalid_address', { key });
      return stripped;
    }
    case 'json-object-number': {
      const parsed = parseJson(key, value);
      if (
        !isPlainObject(parsed) ||
        !Object.values(parsed).every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)
      )
        throw invalidJson(key);
      return value;
    }
    case 'json-object-string': {
      const parsed = parseJson(key, value);
      if (!isPlainObject(parsed) || !Object.values(parsed).every((v) => typeof v === 'string'))
        throw invalidJson(key);
      const choices = definition.choices;
      const bad = choices
        ? Object.values(parsed).find((v) => v !== '' && !choices.includes(v as string))
        : undefined;
      if (bad !== undefined)
        throw new DomainError('option.invalid_choice', { key, choices: choices!.join(', ') });
      return value;
    }
    case 'json-object-int': {
      // new-api's model → max_tokens map: whole numbers, none negative.
      const parsed = parseJson(key, value);
      if (
        !isPlainObject(parsed) ||
        !Object.values(parsed).every(
          (v) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0,
        )
      )
        throw invalidJson(key);
      return value;
    }
    case 'json-model-headers': {
      // new-api's model → header name → list of values.
      const parsed = parseJson(key, value);
      const valid =
        isPlainObject(parsed) &&
        Object.values(parsed).every(
          (headers) =>
            isPlainObject(headers) &&
            Object.values(headers).every(
              (values) => Array.isArray(values) && values.every((v) => typeof v === 'string'),
            ),
        );
      if (!valid) throw invalidJson(key);
      return value;
    }
    case 'json-chats': {
      const parsed = parseJson(key, value);
      const valid =
        Array.isArray(parsed) &&
        parsed.every(
          (item) => isPlainObject(item) && Object.values(item).every((v) => typeof v === 'string'),
        );
      if (!valid) throw invalidJson(key);
      return value;
    }
    case 'email-list': {
      const entries = value
        .split(/[,\n]/)
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== '');
      const unique = [...new Set(entries)];
      const bad = unique.find((entry) => !DOMAIN_PATTERN.test(entry));
      if (bad !== undefined) throw new DomainError('option.invalid_email_domain', { domain: bad });
      return unique.join(',');
    }
  }
}
