import { parseJsonObject } from '@tollgate/relay';

/**
 * JSON-object options (ratios, group lists) as plain maps, for the views built once per option
 * change (relay settings, pricing). Stored values were validated when set; an unreadable one reads
 * as empty rather than failing the view.
 */
function objectOf(raw: string): Record<string, unknown> {
  return parseJsonObject(raw) ?? {};
}

/** The finite numbers of a `{key: number}` option. */
export function numberMap(raw: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(objectOf(raw))) {
    if (typeof v === 'number' && Number.isFinite(v)) out[k] = v;
  }
  return out;
}

/** A `{key: text}` option, every value as text. */
export function stringMap(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(objectOf(raw))) out[k] = String(v);
  return out;
}
