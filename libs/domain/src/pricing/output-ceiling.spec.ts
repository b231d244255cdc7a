import {
  affordableCeiling,
  ceilingReservation,
  DEFAULT_MODEL_MAX_OUTPUT_TOKENS,
  FALLBACK_MAX_OUTPUT_TOKENS,
  modelMaxOutput,
} from './output-ceiling';
import { chargeFor, type PriceOptions, quotePrice } from './pricing';

const options: PriceOptions = {
  modelRatio: { 'gpt-4o': 1.25, 'gpt-4o-mini': 0.075, free: 0, 'no-output-price': 2 },
  completionRatio: { 'gpt-4o': 4, 'gpt-4o-mini': 4, 'no-output-price': 0 },
  modelPrice: { 'dall-e-3': 0.04 },
  groupRatio: { default: 1, svip: 2 },
  cacheRatio: {},
  cacheCreationRatio: {},
  selfUseMode: false,
  preConsumedQuota: 500,
  quotaPerUnit: 500000,
};

const quote = (model: string, group = 'default') => {
  const result = quotePrice(options, model, group);
  if (!result.ok) throw new Error(`no price for ${model}`);
  return result.quote;
};

describe('modelMaxOutput', () => {
  const table = { '*': 1000, 'gpt-4o*': 16384, 'gpt-4o-2024-05-13': 4096, 'gpt-4*': 8192 };
  it.each([
    ['an exact entry beats every prefix', 'gpt-4o-2024-05-13', 4096],
    ['the longest prefix wins', 'gpt-4o-mini', 16384],
    ['a shorter prefix when the longer does not match', 'gpt-4-turbo', 8192],
    ['the `*` entry for any other model', 'llama-3', 1000],
  ])('%s', (_name, model, expected) => {
    expect(modelMaxOutput(table, model)).toBe(expected);
  });

  it('falls back to its own default without a `*` entry, and skips unusable values', () => {
    expect(modelMaxOutput({}, 'x')).toBe(FALLBACK_MAX_OUTPUT_TOKENS);
    expect(modelMaxOutput({ x: 0, 'x*': 2.5, '*': -1 }, 'x')).toBe(FALLBACK_MAX_OUTPUT_TOKENS);
  });

  it('does not read inherited keys', () => {
    expect(modelMaxOutput({ '*': 7 }, 'constructor')).toBe(7);
  });

  it('the defaults name the common families', () => {
    expect(modelMaxOutput(DEFAULT_MODEL_MAX_OUTPUT_TOKENS, 'gpt-4o-mini')).toBe(16384);
    expect(modelMaxOutput(DEFAULT_MODEL_MAX_OUTPUT_TOKENS, 'claude-3-5-sonnet-20241022')).toBe(
      8192,
    );
    expect(modelMaxOutput(DEFAULT_MODEL_MAX_OUTPUT_TOKENS, 'gpt-4')).toBe(4096);
    expect(modelMaxOutput(DEFAULT_MODEL_MAX_OUTPUT_TOKENS, 'some-local-model')).toBe(4096);
  });
});

describe('ceilingReservation', () => {
  it('is what chargeFor bills for the prompt and every choice written to the ceiling', () => {
    const q = quote('gpt-4o');
    // (100 + 50 × 4) × 1.25
    expect(ceilingReservation(q, 100, 50, 500000)).toBe(375);
    // two choices: (100 + 2 × 50 × 4) × 1.25
    expect(ceilingReservation(q, 100, 50, 500000, 2)).toBe(625);
    expect(ceilingReservation(quote('gpt-4o', 'svip'), 100, 50, 500000)).toBe(750);
    for (const [prompt, ceiling] of [
      [1, 1],
      [333, 17],
      [0, 4096],
    ] as const) {
      const charged = chargeFor(
        quote('gpt-4o-mini'),
        { promptTokens: prompt, completionTokens: ceiling, cachedTokens: 0 },
        500000,
      ).quota;
      expect(ceilingReservation(quote('gpt-4o-mini'), prompt, ceiling, 500000)).toBe(charged);
    }
  });

  it('price mode reserves the price of every call, whatever the ceiling', () => {
    expect(ceilingReservation(quote('dall-e-3'), 9, 9, 500000)).toBe(20000);
    expect(ceilingReservation(quote('dall-e-3'), 0, 0, 500000, 2)).toBe(40000);
  });

  it('a free model reserves nothing', () => {
    expect(ceilingReservation(quote('free'), 100, 1000, 500000)).toBe(0);
  });
});

describe('affordableCeiling', () => {
  const q = quote('gpt-4o');
  it('is the wanted ceiling when its reservation fits', () => {
    expect(affordableCeiling(q, 100, 50, 375, 500000)).toBe(50);
    expect(affordableCeiling(q, 100, 50, 10_000, 500000)).toBe(50);
  });

  it('is the largest ceiling whose reservation fits, when less is affordable', () => {
    for (const quota of [126, 130, 200, 374, 1000, 999_999]) {
      const ceiling = affordableCeiling(q, 100, 1_000_000, quota, 500000);
      expect(ceilingReservation(q, 100, ceiling, 500000)).toBeLessThanOrEqual(quota);
      expect(ceilingReservation(q, 100, ceiling + 1, 500000)).toBeGreaterThan(quota);
    }
  });

  it('counts every choice', () => {
    const ceiling = affordableCeiling(q, 100, 1000, 625, 500000, 2);
    expect(ceiling).toBe(50);
  });

  it('is 0 when not even the prompt fits', () => {
    expect(affordableCeiling(q, 100, 50, 124, 500000)).toBe(0);
  });

  it('a price that does not grow with the output: all or nothing', () => {
    expect(affordableCeiling(quote('dall-e-3'), 0, 300, 20000, 500000)).toBe(300);
    expect(affordableCeiling(quote('dall-e-3'), 0, 300, 19999, 500000)).toBe(0);
    const flat = quote('no-output-price');
    expect(affordableCeiling(flat, 10, 300, 20, 500000)).toBe(300);
    expect(affordableCeiling(flat, 10, 300, 19, 500000)).toBe(0);
  });
});
