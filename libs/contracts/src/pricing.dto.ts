/** How a model is billed. */
export const QuotaType = {
  /** By tokens: model ratio × group ratio, completion tokens × completion ratio. */
  Ratio: 0,
  /** A fixed price per call: model price × group ratio. */
  PerCall: 1,
} as const;
export type QuotaType = (typeof QuotaType)[keyof typeof QuotaType];

/** One row of GET /api/pricing: a model some enabled channel serves, priced as the relay bills it. */
export interface PricingRowDto {
  model_name: string;
  quota_type: QuotaType;
  /** Ratio mode only (0 for a per-call model). */
  model_ratio: number;
  /** Ratio mode only (0 for a per-call model). */
  completion_ratio: number;
  /** USD per call; per-call mode only (0 for a ratio model). */
  model_price: number;
  /** The caller's usable groups whose enabled channels serve the model. */
  enable_groups: string[];
  /** The provider whose preset model list holds the model ('' when none does). */
  owner_by: string;
  /**
   * Tollgate's addition beside new-api's fields: false when neither ModelPrice nor ModelRatio
   * names the model. The relay then refuses it, and the ratio fields are 0; in self-use mode it
   * bills it at the fallback ratio, which the ratio fields then carry.
   */
  price_configured: boolean;
}

/**
 * GET /api/pricing: the rows in `data`, and beside them the caller's groups (one-api's and
 * new-api's shape).
 */
export interface PricingResponse {
  success: boolean;
  message: string;
  data: PricingRowDto[];
  /** GroupRatio restricted to the caller's usable groups. */
  group_ratio: Record<string, number>;
  /** group → label: UserUsableGroups plus the caller's own group ('default' when anonymous). */
  usable_group: Record<string, string>;
}

/** Dollars a model costs in one group: per 1M prompt/completion tokens, or per call. */
export type ModelPrices =
  | { readonly mode: 'ratio'; readonly prompt: number; readonly completion: number }
  | { readonly mode: 'price'; readonly perCall: number };

/**
 * The pricing page's formulas (quota unit 500000 = $1, so ratio 1 = $2 per 1M tokens):
 * prompt = model ratio × 2 × group ratio, completion = that × completion ratio (per 1M tokens);
 * per call = model price × group ratio.
 */
export function modelPrices(
  row: Pick<PricingRowDto, 'quota_type' | 'model_ratio' | 'completion_ratio' | 'model_price'>,
  groupRatio: number,
): ModelPrices {
  if (row.quota_type === QuotaType.PerCall)
    return { mode: 'price', perCall: row.model_price * groupRatio };
  const prompt = row.model_ratio * 2 * groupRatio;
  return { mode: 'ratio', prompt, completion: prompt * row.completion_ratio };
}
