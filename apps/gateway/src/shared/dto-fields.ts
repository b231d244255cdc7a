import { Transform } from 'class-transformer';
import { ValidateIf } from 'class-validator';

/**
 * The field may be absent, but not null. class-validator's IsOptional lets null through, and a
 * null then reaches handlers (`.trim()` of null) or lands in an event.
 */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);

const DECIMAL = /^-?\d{1,16}$/;

/**
 * Integers as JSON numbers, or as plain decimal text (query strings are text). Anything else stays
 * as it came so IsInt refuses it: "1e3", "0x10", " 7", "", true and [1] are not numbers here.
 */
export const ToInt = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DECIMAL.test(value) ? Number(value) : value,
  );

/**
 * A query flag: "true"/"1" and "false"/"0" (or a JSON boolean). Anything else stays as it came so
 * IsBoolean refuses it instead of reading "yes" or a repeated flag as false.
 */
export const ToBool = () =>
  Transform(({ value }: { value: unknown }) =>
    value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value,
  );
