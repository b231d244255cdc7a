/** Price maps as the ModelRatio and ModelPrice options hold them (model → number). */
export interface ConfiguredPrices {
  readonly modelRatio: Readonly<Record<string, number>>;
  readonly modelPrice: Readonly<Record<string, number>>;
}

const own = (map: Readonly<Record<string, number>>, key: string): number | undefined =>
  Object.prototype.hasOwnProperty.call(map, key) && Number.isFinite(map[key])
    ? map[key]
    : undefined;

/**
 * Whether an administrator priced `model`: a ModelPrice entry of at least 0, or a ModelRatio entry.
 * The relay refuses a model without either (unless self-use mode), the pricing page marks it as
 * having no price and the ratio settings list it to fill in: all three ask this.
 */
export function hasConfiguredPrice(prices: ConfiguredPrices, model: string): boolean {
  const price = own(prices.modelPrice, model);
  return (price !== undefined && price >= 0) || own(prices.modelRatio, model) !== undefined;
}
