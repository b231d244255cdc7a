import { describe, expect, it } from 'vitest';
import { parsePriceMap, priceRows, unpricedModels, writeRow } from './price-table';

const TEXTS = {
  ModelRatio: '{"gpt-4o": 1.25, "mj": 9}',
  CompletionRatio: '{"gpt-4o": 4}',
  ModelPrice: '{"mj": 0.1}',
};

describe('price table', () => {
  it('reads per-call models, then ratio models, then the pending ones', () => {
    expect(priceRows(TEXTS, ['new-model', 'gpt-4o'])).toEqual([
      { model: 'mj', kind: 'price', value: 0.1, completion: null },
      { model: 'gpt-4o', kind: 'ratio', value: 1.25, completion: 4 },
      { model: 'new-model', kind: 'ratio', value: null, completion: null },
    ]);
  });

  it('has no rows while a JSON text is invalid', () => {
    expect(priceRows({ ...TEXTS, ModelRatio: '{oops' }, [])).toBeNull();
    expect(parsePriceMap('[1]')).toBeNull();
    expect(parsePriceMap('{"a": "1"}')).toBeNull();
    expect(parsePriceMap('')).toEqual({});
  });

  it('writes a row into the option it belongs to and out of the other', () => {
    const next = writeRow(TEXTS, { model: 'mj', kind: 'ratio', value: 2, completion: 3 })!;
    expect(JSON.parse(next.ModelPrice)).toEqual({});
    expect(JSON.parse(next.ModelRatio)).toEqual({ 'gpt-4o': 1.25, mj: 2 });
    expect(JSON.parse(next.CompletionRatio)).toEqual({ 'gpt-4o': 4, mj: 3 });
    const perCall = writeRow(TEXTS, {
      model: 'gpt-4o',
      kind: 'price',
      value: 0.02,
      completion: 4,
    })!;
    expect(JSON.parse(perCall.ModelPrice)).toEqual({ mj: 0.1, 'gpt-4o': 0.02 });
    expect(JSON.parse(perCall.CompletionRatio)).toEqual({});
  });

  it('keeps the text of an option the edit leaves alone', () => {
    const next = writeRow(TEXTS, { model: 'gpt-4o', kind: 'ratio', value: 2, completion: 4 })!;
    expect(next.CompletionRatio).toBe(TEXTS.CompletionRatio);
    expect(next.ModelPrice).toBe(TEXTS.ModelPrice);
  });

  it('removes a row from all three options', () => {
    const next = writeRow(
      TEXTS,
      { model: 'gpt-4o', kind: 'ratio', value: 1, completion: 1 },
      true,
    )!;
    expect(JSON.parse(next.ModelRatio)).toEqual({ mj: 9 });
    expect(JSON.parse(next.CompletionRatio)).toEqual({});
  });

  it('lists the served models with neither ratio nor price, as the relay decides', () => {
    expect(unpricedModels(['gpt-4o', 'mj', 'new-b', 'new-a', 'new-a'], TEXTS)).toEqual([
      'new-a',
      'new-b',
    ]);
    expect(unpricedModels(['x'], { ...TEXTS, ModelRatio: '{}', ModelPrice: '{"x": -1}' })).toEqual([
      'x',
    ]);
  });
});
