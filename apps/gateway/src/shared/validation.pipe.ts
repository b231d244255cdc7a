import {
  ValidationPipe,
  type ArgumentMetadata,
  type PipeTransform,
  type ValidationError,
} from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { withoutEmptyQueryValues, withoutNullFields } from './absent-input';
import { ApiError } from './api-error';
import { QUERY_INPUT } from './dto-fields';
import { hasMessage, type Message, type MessageParams } from './i18n/messages';

/**
 * A constraint's text (`validation.*` in i18n/validation.messages.ts) with the params its declared
 * arguments give (the arguments of `@MaxLength(100)` are `[100]`).
 */
type Rule = (args: readonly unknown[]) => { code: string; params?: MessageParams };

const text = (value: unknown): string =>
  Array.isArray(value) ? value.map(text).join(', ') : String(value);

const plain =
  (code: string): Rule =>
  () => ({ code });
const bound =
  (code: string, name: 'min' | 'max'): Rule =>
  ([limit]) => ({ code, params: { [name]: text(limit) } });

const RULES: Readonly<Record<string, Rule>> = {
  isDefined: plain('validation.required'),
  isNotEmpty: plain('validation.required'),
  arrayNotEmpty: plain('validation.required'),
  isString: plain('validation.is_string'),
  isInt: plain('validation.is_int'),
  isNumber: plain('validation.is_number'),
  isBoolean: plain('validation.is_boolean'),
  isArray: plain('validation.is_array'),
  isObject: plain('validation.is_object'),
  nestedValidation: plain('validation.is_object'),
  isEmail: plain('validation.is_email'),
  isUrl: plain('validation.is_url'),
  matches: plain('validation.matches'),
  maxLength: bound('validation.max_length', 'max'),
  minLength: bound('validation.min_length', 'min'),
  isLength: ([min, max]) =>
    max === undefined
      ? bound('validation.min_length', 'min')([min])
      : { code: 'validation.length', params: { min: text(min), max: text(max) } },
  min: bound('validation.min', 'min'),
  max: bound('validation.max', 'max'),
  arrayMinSize: bound('validation.array_min_size', 'min'),
  arrayMaxSize: bound('validation.array_max_size', 'max'),
  isIn: ([values]) => ({ code: 'validation.is_in', params: { values: text(values) } }),
};

/** The constraints with a text of their own; any other falls back to `validation.invalid`. */
export const RULE_NAMES: readonly string[] = Object.keys(RULES);

/**
 * Rules about what kind of value a field holds, most telling first. When one fails it is the only
 * one reported: a number is not "longer than 100", and an array of the wrong kind has no items to
 * check one by one.
 */
const KIND_RULES = [
  'isArray',
  'isObject',
  'nestedValidation',
  'isString',
  'isInt',
  'isNumber',
  'isBoolean',
];

/** The console's label of a top-level field where it has one, otherwise its JSON path. */
function fieldOf(path: string): Message {
  const label = `validation.field.${path}`;
  return hasMessage(label) ? { code: label } : { code: 'validation.field', params: { name: path } };
}

/** The declared rule behind a failed constraint: its arguments and whether it applies to each item. */
function declaredRule(error: ValidationError, name: string) {
  const target = error.target as { constructor?: unknown } | undefined;
  if (typeof target?.constructor !== 'function') return undefined;
  return getMetadataStorage()
    .getTargetValidationMetadatas(target.constructor, '', true, false)
    .find((rule) => rule.propertyName === error.property && rule.name === name);
}

function constraintMessages(error: ValidationError, path: string, top: boolean): Message[] {
  const names = Object.keys(error.constraints ?? {});
  if (names.length === 0) return [];
  if (names.includes('whitelistValidation'))
    return [{ code: 'validation.not_allowed', params: { name: path } }];
  const hasValue = Object.hasOwn(error, 'value');
  // Nest's own refusal of a body that is an array or a scalar: no field, no value.
  if (top && !hasValue && names.includes('isObject'))
    return [{ code: 'validation.body_not_object' }];
  const field = fieldOf(path);
  if (hasValue && error.value === undefined)
    return [{ code: 'validation.required', params: { field } }];
  const kind = KIND_RULES.find((name) => names.includes(name));
  return (kind ? [kind] : names).map((name) => {
    const declared = declaredRule(error, name);
    const { code, params } = (RULES[name] ?? plain('validation.invalid'))(
      (declared?.constraints ?? []) as readonly unknown[],
    );
    const subject = declared?.each ? { code: 'validation.each', params: { field } } : field;
    return { code, params: { ...params, field: subject } };
  });
}

/**
 * What is wrong with the input, field by field, as messages the exception filter translates into
 * the request's language (the pipe does not see the request). Nested fields are named by their
 * JSON path (`channel.name`, `items.0.id`).
 */
export function validationMessages(errors: readonly ValidationError[], parent = ''): Message[] {
  return errors.flatMap((error) => {
    const path = parent === '' ? String(error.property) : `${parent}.${String(error.property)}`;
    return [
      ...constraintMessages(error, path, parent === ''),
      ...validationMessages(error.children ?? [], path),
    ];
  });
}

/** The envelope's 输入不合法 failure, its detail translated by the exception filter. */
export function invalidInput(errors: readonly ValidationError[]): ApiError {
  const detail = validationMessages(errors);
  return detail.length > 0
    ? new ApiError('common.invalid_input', { detail })
    : new ApiError('common.invalid_params');
}

const dtoPipe = (groups: string[] | undefined) =>
  new ValidationPipe({
    transform: true,
    whitelist: true,
    transformOptions: groups ? { groups } : undefined,
    // The errors are not sent as they are: their targets tell which declared rule failed (its
    // arguments, and whether it applies to each item of an array).
    validationError: { target: true },
    exceptionFactory: invalidInput,
  });

/** The types Nest passes for an untyped argument: there is no DTO to validate, so no field to drop. */
const UNTYPED: readonly unknown[] = [undefined, Object, Array, String, Number, Boolean];

/**
 * class-validator on every body and query DTO; failures become the envelope's 输入不合法 message.
 * Before that, what new-api reads as "not given" is made absent (absent-input.ts), and query DTOs
 * are transformed in the QUERY_INPUT group (an unparsable optional number is absent there).
 */
export class InputValidationPipe implements PipeTransform {
  private readonly bodies = dtoPipe(undefined);
  private readonly queries = dtoPipe([QUERY_INPUT]);

  transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Path parameters reach their own strict pipe as sent: Nest's primitive conversion would read
    // "0x10" as 16 and "1e3" as 1000 before ParseIntPipe saw them.
    if (metadata.type === 'param') return Promise.resolve(value);
    if (UNTYPED.includes(metadata.metatype)) return this.bodies.transform(value, metadata);
    if (metadata.type === 'query')
      return this.queries.transform(withoutEmptyQueryValues(value), metadata);
    if (metadata.type === 'body') return this.bodies.transform(withoutNullFields(value), metadata);
    return this.bodies.transform(value, metadata);
  }
}

export const validationPipe = new InputValidationPipe();
