/** Small readers shared by the adaptors: conversions see bodies typed `unknown` all the way down. */
import type { JsonObject } from '../openai/request-body';

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The readers below answer undefined (or [] / '' / 0) for a value of the wrong kind, never throw. */
export const objectOf = (value: unknown): JsonObject | undefined =>
  isObject(value) ? value : undefined;

export const stringOf = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

export const numberOf = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The objects of an array (other items skipped); [] for anything else. */
export const objects = (value: unknown): JsonObject[] =>
  Array.isArray(value) ? value.filter(isObject) : [];

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A non-negative whole count (token counts); 0 for anything else. */
export const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/** A JSON string of arguments as an object (a model's broken JSON becomes `{}` rather than a throw). */
export function parseArguments(raw: unknown): JsonObject {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string' || raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    return isObject(value) ? value : { value };
  } catch {
    return {};
  }
}

/** JSON text parsed as an object; undefined when it is not JSON or not an object. */
export function parseObject(raw: string): JsonObject | undefined {
  try {
    return objectOf(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

/** `data:<mime>;base64,<data>` split; undefined for anything else (an http URL). */
export function dataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return match ? { mediaType: match[1] as string, data: match[2] as string } : undefined;
}

/** OpenAI message content (a string or parts) as its text. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return objects(content)
    .map((part) => (part.type === 'text' ? text(part.text) : ''))
    .join('');
}

/** Drops undefined members so converted bodies carry only what was set. */
export function defined(object: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) if (value !== undefined) out[key] = value;
  return out;
}
