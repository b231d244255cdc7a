import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/**
 * The field may be absent. A JSON null never reaches here: the validation pipe drops null fields
 * (absent-input.ts); class-validator's IsOptional would let one through to handlers and events.
 */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

/**
 * The class-transformer group the validation pipe transforms query DTOs in: transforms tagged with it
 * apply to query strings only, never to JSON bodies.
 */
export const QUERY_INPUT = 'query-input';

const DECIMAL = /^-?\d{1,16}$/;
/** Any run of digits: a number, if perhaps too large for one (refused as such, not ignored). */
const DIGITS = /^-?\d+$/;

/**
 * Integers as JSON numbers, or as plain decimal text (query strings are text). In a body anything
 * else stays as it came so IsInt refuses it: "1e3", "0x10", " 7", "", true and [1] are not numbers
 * here. In a query string, text that is no decimal integer ("NaN", "abc", "1.5") is the parameter
 * left out, as new-api reads it (its zero value: no filter, the default page); a repeated parameter
 * (an array) and digits out of range are still refused.
 */
export const ToInt = () =>
  applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value,
    ),
    Transform(
      ({ value }: { value: unknown }) =>
        typeof value === 'string' && !DIGITS.test(value) ? undefined : value,
      { groups: [QUERY_INPUT] },
    ),
  );

/**
 * A query flag: "true"/"1" and "false"/"0" (or a JSON boolean). Anything else stays as it came so
 * IsBoolean refuses it instead of reading "yes" or a repeated flag as false.
 */
export const ToBool = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  );
