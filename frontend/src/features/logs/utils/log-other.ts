import type { LogOtherDto } from '@tollgate/contracts';

/** The limit that lowered a request's output ceiling to what its payer could afford. */
export type CeilingLimit = NonNullable<LogOtherDto['lowered_by']>;

/** A consumption row's `other` (the output ceiling's fields included). */
export type LogOther = LogOtherDto;

/** `other` is JSON text on the wire ('' when none); a malformed one is treated as empty. */
export function parseOther(other: string): LogOther {
  if (!other) return {};
  try {
    const value = JSON.parse(other) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as LogOther) : {};
  } catch {
    return {};
  }
}
