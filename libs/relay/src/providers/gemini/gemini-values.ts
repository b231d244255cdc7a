/**
 * Reading loosely typed JSON (client and provider bodies) without casts at every step: each helper
 * answers undefined (or an empty list) for a value of the wrong kind instead of throwing.
 */
import type { JsonObject } from '../../openai/request-body';

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const objectOf = (value: unknown): JsonObject | undefined =>
  isObject(value) ? value : undefined;

export const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The objects of an array (other items skipped); [] for anything else. */
export const objectsOf = (value: unknown): JsonObject[] =>
  Array.isArray(value) ? value.filter(isObject) : [];

/** A non-negative whole count (token counts); 0 for anything else. */
export const countOf = (value: unknown): number => {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? Math.floor(n) : 0;
};

/** JSON text parsed as an object; undefined when it is not JSON or not an object. */
export function parseObject(text: string): JsonObject | undefined {
  try {
    return objectOf(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** Copies the defined entries only (bodies never carry `"key": undefined`). */
export function compact(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(entries)) if (value !== undefined) out[key] = value;
  return out;
}
