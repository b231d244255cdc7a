import type { LogOtherDto } from '@tollgate/contracts';

/** `other` is JSON text on the wire ('' when none); a malformed one is treated as empty. */
export function parseOther(other: string): LogOtherDto {
  if (!other) return {};
  try {
    const value = JSON.parse(other) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as LogOtherDto)
      : {};
  } catch {
    return {};
  }
}
