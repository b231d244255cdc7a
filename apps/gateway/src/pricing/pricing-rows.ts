import {
  CHANNEL_TYPE_MODELS,
  CHANNEL_TYPES,
  hasConfiguredPrice,
  type PricingResponse,
  type PricingRowDto,
  QuotaType,
} from '@tollgate/contracts';
import { type PriceOptions, quotePrice } from '@tollgate/domain';

/** The price options a pricing row reads. */
export type RowPriceOptions = Pick<
  PriceOptions,
  'modelRatio' | 'completionRatio' | 'modelPrice' | 'selfUseMode'
>;

/**
 * model → the provider whose preset list holds it (lowest type number first), for `owner_by`. From
 * the static type table only: nothing about the configured channels leaves through it.
 */
export function presetOwners(): ReadonlyMap<string, string> {
  const owners = new Map<string, string>();
  const types = Object.keys(CHANNEL_TYPE_MODELS)
    .map(Number)
    .sort((a, b) => a - b);
  for (const type of types)
    for (const model of CHANNEL_TYPE_MODELS[type] ?? [])
      if (!owners.has(model)) owners.set(model, CHANNEL_TYPES[type] ?? '');
  return owners;
}

/** model → the groups whose enabled channels serve it. */
function groupsByModel(served: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const groupsOf = new Map<string, string[]>();
  for (const [group, models] of served)
    for (const model of models) {
      const groups = groupsOf.get(model);
      if (groups) groups.push(group);
      else groupsOf.set(model, [group]);
    }
  return groupsOf;
}

/** One model's price fields as the relay quotes it; zeros when the relay refuses it. */
function priceFields(
  options: PriceOptions,
  model: string,
): Pick<
  PricingRowDto,
  'quota_type' | 'model_ratio' | 'completion_ratio' | 'model_price' | 'price_configured'
> {
  const price_configured = hasConfiguredPrice(options, model);
  const quoted = quotePrice(options, model, '');
  if (!quoted.ok)
    return {
      quota_type: QuotaType.Ratio,
      model_ratio: 0,
      completion_ratio: 0,
      model_price: 0,
      price_configured,
    };
  const { quote } = quoted;
  return {
    quota_type: quote.mode === 'price' ? QuotaType.PerCall : QuotaType.Ratio,
    model_ratio: quote.mode === 'ratio' ? quote.modelRatio : 0,
    completion_ratio: quote.mode === 'ratio' ? quote.completionRatio : 0,
    model_price: quote.mode === 'price' ? quote.modelPrice : 0,
    price_configured,
  };
}

/**
 * Every model an enabled channel serves, once, with the groups serving it and its price as the relay
 * quotes it: a ModelPrice entry makes it per call, else its ModelRatio and CompletionRatio. A model
 * with neither has `price_configured` false: zeros where the relay refuses it, the fallback ratio
 * where self-use mode bills it. `served` is group → models (the routing table's index); rows are
 * sorted by model name.
 */
export function buildPricingRows(
  served: ReadonlyMap<string, readonly string[]>,
  price: RowPriceOptions,
  owners: ReadonlyMap<string, string>,
): PricingRowDto[] {
  const options: PriceOptions = {
    ...price,
    groupRatio: {},
    cacheRatio: {},
    cacheCreationRatio: {},
    preConsumedQuota: 0,
    quotaPerUnit: 500000,
  };
  const rows: PricingRowDto[] = [];
  for (const [model, groups] of groupsByModel(served))
    rows.push({
      model_name: model,
      ...priceFields(options, model),
      enable_groups: groups.sort(),
      owner_by: owners.get(model) ?? '',
    });
  return rows.sort((a, b) =>
    a.model_name < b.model_name ? -1 : a.model_name > b.model_name ? 1 : 0,
  );
}

/**
 * What one caller sees (new-api's GetPricing): the rows some usable group serves, each with only its
 * usable groups; GroupRatio restricted to the usable groups; the usable groups themselves.
 */
export function pricingForCaller(
  rows: readonly PricingRowDto[],
  groupRatio: Readonly<Record<string, number>>,
  usable: Readonly<Record<string, string>>,
): Omit<PricingResponse, 'success' | 'message'> {
  const data: PricingRowDto[] = [];
  for (const row of rows) {
    const groups = row.enable_groups.filter((group) => Object.hasOwn(usable, group));
    if (groups.length > 0) data.push({ ...row, enable_groups: groups });
  }
  const ratios: Record<string, number> = {};
  for (const [group, ratio] of Object.entries(groupRatio))
    if (Object.hasOwn(usable, group)) ratios[group] = ratio;
  return { data, group_ratio: ratios, usable_group: { ...usable } };
}
