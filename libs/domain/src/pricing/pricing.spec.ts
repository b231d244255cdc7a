import { chargeFor, type PriceOptions, quotePrice, SELF_USE_MODEL_RATIO } from './pricing';
import { hasConfiguredPrice } from '@tollgate/contracts';

const options: PriceOptions = {
  modelRatio: {
    'gpt-4o': 1.25,
    'gpt-4o-mini': 0.075,
    free: 0,
    'text-embedding-3-small': 0.01,
    claude: 1.5,
    'claude-cheap-writes': 1.5,
  },
  completionRatio: { 'gpt-4o': 4, 'gpt-4o-mini': 4, claude: 5, 'claude-cheap-writes': 5 },
  modelPrice: { 'dall-e-3': 0.04, 'gpt-4o-priced': 0.02 },
  groupRatio: { default: 1, vip: 0.5, svip: 2, zero: 0 },
  cacheRatio: { 'gpt-4o': 0.5, claude: 0.1 },
  cacheCreationRatio: { claude: 1.25, 'claude-cheap-writes': 1 },
  selfUseMode: false,
  preConsumedQuota: 500,
  quotaPerUnit: 500000,
};

const quote = (model: string, group = 'default', opts: PriceOptions = options) => {
  const result = quotePrice(opts, model, group);
  if (!result.ok) throw new Error(`no price for ${model}`);
  return result.quote;
};

describe('chargeFor', () => {
  const cases: Array<{
    name: string;
    model: string;
    group?: string;
    prompt: number;
    completion: number;
    cached?: number;
    written?: number;
    quota: number;
  }> = [
    // round((prompt + completion × completionRatio) × modelRatio × groupRatio)
    { name: 'ratio, default group', model: 'gpt-4o', prompt: 100, completion: 50, quota: 375 },
    {
      name: 'group ratio 0.5',
      model: 'gpt-4o',
      group: 'vip',
      prompt: 100,
      completion: 50,
      quota: 188,
    }, // 187.5 → 188
    {
      name: 'group ratio 2',
      model: 'gpt-4o',
      group: 'svip',
      prompt: 100,
      completion: 50,
      quota: 750,
    },
    {
      name: 'unknown group bills at 1',
      model: 'gpt-4o',
      group: 'nope',
      prompt: 100,
      completion: 50,
      quota: 375,
    },
    {
      name: 'completion ratio 4',
      model: 'gpt-4o-mini',
      prompt: 1000,
      completion: 1000,
      quota: 375,
    },
    {
      name: 'no completion ratio = 1',
      model: 'text-embedding-3-small',
      prompt: 1000,
      completion: 0,
      quota: 10,
    },
    // (prompt − cached) + cached × cacheRatio: 100 − 60 + 30 = 70 → (70 + 200) × 1.25
    {
      name: 'cached tokens at the cache ratio',
      model: 'gpt-4o',
      prompt: 100,
      completion: 50,
      cached: 60,
      quota: 338,
    }, // 337.5
    {
      name: 'cached tokens capped at prompt',
      model: 'gpt-4o',
      prompt: 10,
      completion: 0,
      cached: 99,
      quota: 6,
    }, // 5 × 1.25 = 6.25
    // Anthropic: (4020 − 3000 − 1000) + 3000 × 0.1 + 1000 × 1.25 + 42 × 5 = 20 + 300 + 1250 + 210
    // = 1780 → × 1.5 = 2670
    {
      name: 'cache reads and writes at their own ratios',
      model: 'claude',
      prompt: 4020,
      completion: 42,
      cached: 3000,
      written: 1000,
      quota: 2670,
    },
    // A model without a CacheCreationRatio entry: the writes at 1.25 (Anthropic's list price).
    // (200 − 100) × 1 + 100 × 1.25 = 225 → × 1.25 (gpt-4o) = 281.25
    {
      name: 'cache writes default to 1.25',
      model: 'gpt-4o',
      prompt: 200,
      completion: 0,
      written: 100,
      quota: 281,
    },
    // Writes never exceed what the prompt holds besides the reads: 10 − 6 = 4 written at most.
    {
      name: 'cache writes capped at the prompt',
      model: 'claude-cheap-writes',
      prompt: 10,
      completion: 0,
      cached: 6,
      written: 50,
      quota: 15, // no cache ratios for this model: (0 + 6 × 1 + 4 × 1) × 1.5
    },
    {
      name: 'minimum 1 when ratios are not zero',
      model: 'gpt-4o-mini',
      prompt: 1,
      completion: 0,
      quota: 1,
    },
    { name: 'zero model ratio is free', model: 'free', prompt: 1000, completion: 1000, quota: 0 },
    {
      name: 'zero group ratio is free',
      model: 'gpt-4o',
      group: 'zero',
      prompt: 1000,
      completion: 1000,
      quota: 0,
    },
    { name: 'no tokens used costs nothing', model: 'gpt-4o', prompt: 0, completion: 0, quota: 0 },
    // modelPrice × 500000 × groupRatio, tokens ignored
    { name: 'price mode', model: 'dall-e-3', prompt: 0, completion: 0, quota: 20000 },
    {
      name: 'price mode with group ratio',
      model: 'dall-e-3',
      group: 'vip',
      prompt: 5,
      completion: 5,
      quota: 10000,
    },
    {
      name: 'price wins over ratio',
      model: 'gpt-4o-priced',
      group: 'svip',
      prompt: 1e6,
      completion: 1e6,
      quota: 20000,
    },
  ];

  it.each(cases)('$name', ({ model, group, prompt, completion, cached, written, quota }) => {
    const receipt = chargeFor(
      quote(model, group),
      {
        promptTokens: prompt,
        completionTokens: completion,
        cachedTokens: cached ?? 0,
        cacheCreationTokens: written,
      },
      options.quotaPerUnit,
    );
    expect(receipt.quota).toBe(quota);
  });

  it('the receipt carries the ratios that produced the charge', () => {
    const receipt = chargeFor(
      quote('gpt-4o', 'vip'),
      { promptTokens: 100, completionTokens: 50, cachedTokens: 20 },
      500000,
    );
    expect(receipt).toEqual({
      quota: 181, // ((100 − 20) + 20 × 0.5 + 50 × 4) × 1.25 × 0.5 = 181.25
      mode: 'ratio',
      modelRatio: 1.25,
      completionRatio: 4,
      groupRatio: 0.5,
      cacheRatio: 0.5,
      cacheCreationRatio: 1.25,
      modelPrice: -1,
      promptTokens: 100,
      completionTokens: 50,
      cachedTokens: 20,
      cacheCreationTokens: 0,
    });
  });

  it('price mode receipts say ratio 0 and the price', () => {
    const receipt = chargeFor(
      quote('dall-e-3'),
      { promptTokens: 0, completionTokens: 0, cachedTokens: 0 },
      500000,
    );
    expect(receipt).toMatchObject({ mode: 'price', modelPrice: 0.04, modelRatio: 0, quota: 20000 });
  });

  it('price mode bills each call (images with n > 1)', () => {
    const none = { promptTokens: 0, completionTokens: 0, cachedTokens: 0 };
    expect(chargeFor(quote('dall-e-3', 'vip'), none, 500000, 3).quota).toBe(30000);
    expect(chargeFor(quote('gpt-4o'), { ...none, promptTokens: 8 }, 500000, 3).quota).toBe(10);
  });

  it('ignores negative and fractional token counts from a misbehaving upstream', () => {
    const receipt = chargeFor(
      quote('gpt-4o'),
      { promptTokens: -5, completionTokens: 2.7, cachedTokens: Number.NaN },
      500000,
    );
    expect(receipt).toMatchObject({
      promptTokens: 0,
      completionTokens: 2,
      cachedTokens: 0,
      quota: 10,
    });
  });
});

describe('quotePrice', () => {
  it('refuses a model with neither ratio nor price', () => {
    expect(quotePrice(options, 'mystery', 'default')).toEqual({
      ok: false,
      code: 'model_price_not_configured',
      model: 'mystery',
    });
  });

  it('bills an unknown model at the self-use ratio in self-use mode', () => {
    const q = quote('mystery', 'default', { ...options, selfUseMode: true });
    expect(q).toMatchObject({
      mode: 'ratio',
      modelRatio: SELF_USE_MODEL_RATIO,
      completionRatio: 1,
    });
  });

  it('does not take inherited object keys for prices', () => {
    expect(quotePrice(options, 'constructor', 'default').ok).toBe(false);
  });
});

describe('hasConfiguredPrice', () => {
  it('is true for a ModelRatio or a ModelPrice entry, a ratio of 0 included', () => {
    expect(hasConfiguredPrice(options, 'gpt-4o')).toBe(true);
    expect(hasConfiguredPrice(options, 'dall-e-3')).toBe(true);
    expect(hasConfiguredPrice(options, 'free')).toBe(true);
  });

  it('is false for a model with neither, or only a negative price, as the relay refuses it', () => {
    expect(hasConfiguredPrice(options, 'mystery')).toBe(false);
    expect(hasConfiguredPrice({ modelRatio: {}, modelPrice: { x: -1 } }, 'x')).toBe(false);
    expect(hasConfiguredPrice(options, 'constructor')).toBe(false);
    expect(quotePrice({ ...options, modelPrice: { x: -1 } }, 'x', 'default').ok).toBe(false);
  });
});
