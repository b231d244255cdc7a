import { hasConfiguredPrice } from '@tollgate/contracts';

/** The option keys the price table edits. */
export const PRICE_KEYS = ['ModelRatio', 'CompletionRatio', 'ModelPrice'] as const;
export type PriceKey = (typeof PRICE_KEYS)[number];
export type PriceTexts = Readonly<Record<PriceKey, string>>;

/** One model's price as the table shows it: by ratio (with its completion ratio) or per call. */
export interface PriceRow {
  readonly model: string;
  readonly kind: 'ratio' | 'price';
  /** ModelRatio or ModelPrice; null while the administrator has not typed one. */
  readonly value: number | null;
  /** CompletionRatio; null when not set (billed at 1). */
  readonly completion: number | null;
}

type PriceMap = Record<string, number>;

/** A JSON object of numbers, or null when the text is not one (the JSON view says why). */
export function parsePriceMap(text: string): PriceMap | null {
  try {
    const value: unknown = JSON.parse(text.trim() === '' ? '{}' : text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.some(([, v]) => typeof v !== 'number')) return null;
    return Object.fromEntries(entries) as PriceMap;
  } catch {
    return null;
  }
}

function parseAll(texts: PriceTexts): Record<PriceKey, PriceMap> | null {
  const ratio = parsePriceMap(texts.ModelRatio);
  const completion = parsePriceMap(texts.CompletionRatio);
  const price = parsePriceMap(texts.ModelPrice);
  return ratio && completion && price
    ? { ModelRatio: ratio, CompletionRatio: completion, ModelPrice: price }
    : null;
}

/**
 * The table's rows: per-call models (ModelPrice wins, as the relay bills), then ratio models, each
 * in the options' order, then `pending` models not priced yet; null when a JSON text is invalid.
 */
export function priceRows(texts: PriceTexts, pending: readonly string[]): PriceRow[] | null {
  const maps = parseAll(texts);
  if (!maps) return null;
  const rows: PriceRow[] = [];
  const seen = new Set<string>();
  for (const [model, value] of Object.entries(maps.ModelPrice)) {
    seen.add(model);
    rows.push({ model, kind: 'price', value, completion: null });
  }
  for (const [model, value] of Object.entries(maps.ModelRatio)) {
    if (seen.has(model)) continue;
    seen.add(model);
    rows.push({ model, kind: 'ratio', value, completion: maps.CompletionRatio[model] ?? null });
  }
  for (const model of pending)
    if (!seen.has(model)) rows.push({ model, kind: 'ratio', value: null, completion: null });
  return rows;
}

const text = (map: PriceMap) => JSON.stringify(map, null, 2);

/**
 * The three option texts after `row` is written (or removed, with `remove`): its value goes to
 * ModelPrice or ModelRatio and leaves the other; a null value or completion ratio removes that entry.
 */
export function writeRow(texts: PriceTexts, row: PriceRow, remove = false): PriceTexts | null {
  const maps = parseAll(texts);
  const before = parseAll(texts);
  if (!maps || !before) return null;
  const { model } = row;
  delete maps.ModelRatio[model];
  delete maps.ModelPrice[model];
  delete maps.CompletionRatio[model];
  if (!remove && row.value !== null) {
    if (row.kind === 'price') maps.ModelPrice[model] = row.value;
    else maps.ModelRatio[model] = row.value;
  }
  if (!remove && row.kind === 'ratio' && row.completion !== null)
    maps.CompletionRatio[model] = row.completion;
  // An option the edit leaves as it was keeps its text (and is not sent again).
  const keep = (key: PriceKey) =>
    JSON.stringify(maps[key]) === JSON.stringify(before[key]) ? texts[key] : text(maps[key]);
  return {
    ModelRatio: keep('ModelRatio'),
    CompletionRatio: keep('CompletionRatio'),
    ModelPrice: keep('ModelPrice'),
  };
}

/** The models enabled channels serve that neither ModelPrice nor ModelRatio prices. */
export function unpricedModels(enabled: readonly string[], texts: PriceTexts): string[] {
  const maps = parseAll(texts);
  if (!maps) return [];
  const prices = { modelRatio: maps.ModelRatio, modelPrice: maps.ModelPrice };
  return [...new Set(enabled)].filter((model) => !hasConfiguredPrice(prices, model)).sort();
}
