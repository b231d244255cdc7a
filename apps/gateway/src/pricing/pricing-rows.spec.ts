import { QuotaType } from '@tollgate/contracts';
import { SELF_USE_MODEL_RATIO } from '@tollgate/domain';
import { buildPricingRows, presetOwners, pricingForCaller } from './pricing-rows';

const PRICES = {
  modelRatio: { 'gpt-4o': 1.25, mj_imagine: 9, 'gpt-4o-mini': 0.075 },
  completionRatio: { 'gpt-4o': 4 },
  modelPrice: { mj_imagine: 0.1 },
  selfUseMode: false,
};

const served = (entries: Record<string, string[]>) => new Map(Object.entries(entries));

describe('buildPricingRows', () => {
  const owners = presetOwners();

  it('one row per served model with the groups serving it, sorted by name', () => {
    const rows = buildPricingRows(
      served({ vip: ['gpt-4o'], default: ['gpt-4o', 'gpt-4o-mini'] }),
      PRICES,
      owners,
    );
    expect(rows.map((row) => [row.model_name, row.enable_groups])).toEqual([
      ['gpt-4o', ['default', 'vip']],
      ['gpt-4o-mini', ['default']],
    ]);
  });

  it('ratio mode: model and completion ratio, no price; completion ratio defaults to 1', () => {
    const [gpt4o, mini] = buildPricingRows(
      served({ default: ['gpt-4o', 'gpt-4o-mini'] }),
      PRICES,
      owners,
    );
    expect(gpt4o).toMatchObject({
      quota_type: QuotaType.Ratio,
      model_ratio: 1.25,
      completion_ratio: 4,
      model_price: 0,
    });
    expect(mini).toMatchObject({
      quota_type: QuotaType.Ratio,
      model_ratio: 0.075,
      completion_ratio: 1,
    });
  });

  it('a ModelPrice entry wins over a ratio (per call), as the relay bills it', () => {
    const [row] = buildPricingRows(served({ default: ['mj_imagine'] }), PRICES, owners);
    expect(row).toMatchObject({
      quota_type: QuotaType.PerCall,
      model_price: 0.1,
      model_ratio: 0,
      completion_ratio: 0,
    });
  });

  it('a model with neither price nor ratio has no price set and no invented ratio', () => {
    const [row] = buildPricingRows(served({ default: ['my-own-model'] }), PRICES, owners);
    expect(row).toMatchObject({
      quota_type: QuotaType.Ratio,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: 0,
      price_configured: false,
    });
  });

  it('in self-use mode an unpriced model shows the fallback ratio the relay bills it at', () => {
    const [row] = buildPricingRows(
      served({ default: ['my-own-model'] }),
      { ...PRICES, selfUseMode: true },
      owners,
    );
    expect(row).toMatchObject({ model_ratio: SELF_USE_MODEL_RATIO, price_configured: false });
  });

  it('a priced model, by ratio or per call, has its price set', () => {
    const rows = buildPricingRows(served({ default: ['gpt-4o', 'mj_imagine'] }), PRICES, owners);
    expect(rows.map((row) => row.price_configured)).toEqual([true, true]);
  });

  it('owner_by comes from the preset lists only', () => {
    const rows = buildPricingRows(served({ default: ['gpt-4o', 'my-own-model'] }), PRICES, owners);
    expect(rows.map((row) => row.owner_by)).toEqual(['OpenAI', '']);
  });

  it('nothing served, no rows', () => {
    expect(buildPricingRows(new Map(), PRICES, owners)).toEqual([]);
  });
});

describe('pricingForCaller', () => {
  const rows = buildPricingRows(
    served({ default: ['gpt-4o'], vip: ['gpt-4o', 'gpt-4o-mini'], svip: ['mj_imagine'] }),
    PRICES,
    presetOwners(),
  );
  const ratios = { default: 1, vip: 0.8, svip: 0.5 };

  it('keeps the rows a usable group serves, with only the usable groups', () => {
    const answer = pricingForCaller(rows, ratios, { default: '默认分组' });
    expect(answer.data.map((row) => [row.model_name, row.enable_groups])).toEqual([
      ['gpt-4o', ['default']],
    ]);
    expect(answer.group_ratio).toEqual({ default: 1 });
    expect(answer.usable_group).toEqual({ default: '默认分组' });
  });

  it('never edits the shared rows', () => {
    pricingForCaller(rows, ratios, { default: 'x' });
    expect(rows.find((row) => row.model_name === 'gpt-4o')?.enable_groups).toEqual([
      'default',
      'vip',
    ]);
  });

  it('a group without a ratio is usable but absent from group_ratio', () => {
    const answer = pricingForCaller(rows, { default: 1 }, { default: 'd', svip: 's' });
    expect(answer.data.map((row) => row.model_name)).toEqual(['gpt-4o', 'mj_imagine']);
    expect(answer.group_ratio).toEqual({ default: 1 });
  });
});
