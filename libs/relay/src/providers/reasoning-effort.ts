/**
 * Reasoning on the hub: OpenAI's `reasoning_effort` is the one shape every conversion passes
 * through. A provider that takes a token budget instead (Anthropic `thinking.budget_tokens`, Gemini
 * `thinkingConfig.thinkingBudget`) reads it through these two tables, which are each other's
 * inverse: an effort sent as a budget comes back as the same effort. The table is the levels
 * Google's own OpenAI-compatible endpoint uses (low 1K, medium 8K, high 24K, none 0); `minimal` is
 * undocumented there and gets the low budget, `xhigh` the high one. docs/providers.md#reasoning.
 */
const EFFORT_BUDGETS: Readonly<Record<string, number>> = {
  none: 0,
  minimal: 1024,
  low: 1024,
  medium: 8192,
  high: 24576,
  xhigh: 24576,
};

/** The thinking budget of a `reasoning_effort` (0 for `none`); undefined for no or an unknown effort. */
export function budgetOfEffort(effort: unknown): number | undefined {
  return typeof effort === 'string' && Object.hasOwn(EFFORT_BUDGETS, effort)
    ? EFFORT_BUDGETS[effort]
    : undefined;
}

/**
 * The `reasoning_effort` of a thinking budget: 0 is `none`, up to 1K `low`, up to 8K `medium`,
 * more `high`; a negative budget (Gemini's "dynamic") leaves it to the upstream (undefined).
 */
export function effortOfBudget(budget: number): string | undefined {
  if (budget < 0 || !Number.isFinite(budget)) return undefined;
  if (budget === 0) return 'none';
  if (budget <= EFFORT_BUDGETS.low!) return 'low';
  if (budget <= EFFORT_BUDGETS.medium!) return 'medium';
  return 'high';
}
