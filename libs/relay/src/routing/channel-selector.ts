/**
 * Picking the channel for one attempt of a request (docs/relay.md, "Channel selection
 * and retries"): priority tiers (highest first; attempt i aims at tier i like new-api), weighted
 * random inside a tier with P ∝ weight + 10 (adaptive routing: divided by the observed cost
 * squared), never a channel already tried in this request, and channels cooling down after a
 * failure on this model are used only when nothing else is left.
 */

export interface SelectableChannel {
  readonly id: number;
  readonly priority: number;
  readonly weight: number;
}

export interface SelectionContext {
  /** 0 for the first attempt, 1 for the first retry, … */
  readonly attempt: number;
  readonly tried: ReadonlySet<number>;
  readonly isCooling: (channelId: number) => boolean;
  /** [0, 1) */
  readonly rng: () => number;
  /**
   * Adaptive routing: a channel's observed cost (lower wins traffic ∝ weight / cost²), undefined
   * for one without history (it is costed as its tier's average). Absent: static weights only.
   */
  readonly cost?: (channel: SelectableChannel) => number | undefined;
}

/**
 * Under adaptive routing, the share of picks made uniformly inside the tier: every channel keeps
 * being probed, so one that recovered wins its traffic back.
 */
export const PROBE_SHARE = 0.1;

/** Weight smoothing of one-api and new-api: a weight-0 channel still gets traffic. */
export const WEIGHT_SMOOTHING = 10;

function tiersOf<C extends SelectableChannel>(channels: readonly C[]): C[][] {
  const byPriority = new Map<number, C[]>();
  for (const channel of channels) {
    const tier = byPriority.get(channel.priority);
    if (tier) tier.push(channel);
    else byPriority.set(channel.priority, [channel]);
  }
  return [...byPriority.entries()].sort((a, b) => b[0] - a[0]).map(([, tier]) => tier);
}

function weightedPick<C extends SelectableChannel>(tier: readonly C[], rng: () => number): C {
  let total = 0;
  for (const c of tier) total += Math.max(0, c.weight) + WEIGHT_SMOOTHING;
  let point = rng() * total;
  for (const c of tier) {
    point -= Math.max(0, c.weight) + WEIGHT_SMOOTHING;
    if (point < 0) return c;
  }
  return tier[tier.length - 1] as C;
}

/** Weight ∝ (static weight) / cost²; a channel without history costs the tier's average. */
function adaptivePick<C extends SelectableChannel>(
  tier: readonly C[],
  rng: () => number,
  costOf: (channel: SelectableChannel) => number | undefined,
): C {
  if (tier.length === 1 || rng() < PROBE_SHARE)
    return tier[Math.floor(rng() * tier.length)] ?? (tier[0] as C);
  let known = 0;
  let sum = 0;
  const costs = tier.map((c) => {
    const cost = costOf(c);
    if (cost !== undefined) {
      known += 1;
      sum += cost;
    }
    return cost;
  });
  const fair = known > 0 ? sum / known : 1;
  let total = 0;
  const shares = tier.map((c, i) => {
    const cost = Math.max(costs[i] ?? fair, Number.MIN_VALUE);
    const share = (Math.max(0, c.weight) + WEIGHT_SMOOTHING) / (cost * cost);
    total += share;
    return share;
  });
  let point = rng() * total;
  for (let i = 0; i < tier.length; i++) {
    point -= shares[i] ?? 0;
    if (point < 0) return tier[i] as C;
  }
  return tier[tier.length - 1] as C;
}

/** Tier to aim at, then the nearest lower tiers, then the higher ones. */
function tierOrder(count: number, attempt: number): number[] {
  const target = Math.min(Math.max(attempt, 0), count - 1);
  const order: number[] = [];
  for (let i = target; i < count; i++) order.push(i);
  for (let i = target - 1; i >= 0; i--) order.push(i);
  return order;
}

export function selectChannel<C extends SelectableChannel>(
  candidates: readonly C[],
  ctx: SelectionContext,
): C | undefined {
  // Tiers over every candidate, tried ones included, so attempt i keeps meaning tier i.
  const tiers = tiersOf(candidates);
  const order = tierOrder(tiers.length, ctx.attempt);
  for (const allowCooling of [false, true]) {
    for (const index of order) {
      const eligible = (tiers[index] ?? []).filter(
        (c) => !ctx.tried.has(c.id) && (allowCooling || !ctx.isCooling(c.id)),
      );
      if (eligible.length === 0) continue;
      return ctx.cost ? adaptivePick(eligible, ctx.rng, ctx.cost) : weightedPick(eligible, ctx.rng);
    }
  }
  return undefined;
}

/**
 * Channel × model cool-downs after a failure (one-hub's idea; neither one-api nor new-api has it):
 * a channel that just failed is not hammered by the next requests. Memory is bounded by pruning
 * expired entries.
 */
export class CooldownBook {
  private readonly until = new Map<string, number>();
  private sweepAt = 0;

  constructor(private readonly now: () => number) {}

  private static key(channelId: number, model: string): string {
    return `${channelId}\u0000${model}`;
  }

  /** Cools channel × model for `ms` (e.g. the upstream's Retry-After), never shortening one. */
  cool(channelId: number, model: string, ms: number): void {
    if (!(ms > 0)) return;
    const key = CooldownBook.key(channelId, model);
    const end = this.now() + ms;
    if ((this.until.get(key) ?? 0) < end) this.until.set(key, end);
    this.sweep();
  }

  isCooling(channelId: number, model: string): boolean {
    const end = this.until.get(CooldownBook.key(channelId, model));
    return end !== undefined && end > this.now();
  }

  /** Remaining ms, 0 when not cooling. */
  remaining(channelId: number, model: string): number {
    const end = this.until.get(CooldownBook.key(channelId, model)) ?? 0;
    return Math.max(0, end - this.now());
  }

  clear(channelId: number, model: string): void {
    this.until.delete(CooldownBook.key(channelId, model));
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, end] of this.until) if (end <= now) this.until.delete(key);
  }
}

/**
 * Retry-After in ms: delta-seconds or an HTTP date; undefined when absent or unreadable. Capped so
 * a hostile upstream cannot park a channel for days.
 */
export function retryAfterMs(
  header: string | string[] | undefined,
  nowMs: number,
  capMs = 10 * 60_000,
): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  const trimmed = value.trim();
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(trimmed)) ms = Number(trimmed) * 1000;
  else {
    const at = Date.parse(trimmed);
    if (Number.isNaN(at)) return undefined;
    ms = at - nowMs;
  }
  return Math.min(Math.max(0, Math.round(ms)), capMs);
}
