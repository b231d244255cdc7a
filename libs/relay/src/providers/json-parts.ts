/** Small readers shared by the adaptors: conversions see bodies typed `unknown` all the way down. */
import type { JsonObject } from '../openai/request-body';

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

export const objects = (value: unknown): JsonObject[] =>
  Array.isArray(value) ? value.filter(isObject) : [];

export const text = (value: unknown): string => (typeof value === 'string' ? value : '');

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
