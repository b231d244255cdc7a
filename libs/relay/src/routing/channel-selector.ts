/**
 * Picking the channel for one attempt of a request (docs/relay.md, "Channel selection
 * and retries"): priority tiers (highest first; attempt i aims at tier i like new-api), weighted
 * random inside a tier with P ∝ weight + 10 (adaptive routing: divided by the observed cost
 * squared), never a channel already tried in this request, and channels cooling down after a
 * failure on this model are used only when nothing else is left.
 */

import type { RoutingStrategy } from './channel-stats';

export interface SelectableChannel {
  readonly id: number;
  readonly priority: number;
  readonly weight: number;
}

/** Where adaptive routing reads a channel's observed cost (ChannelStats). */
export interface CostSource {
  /** Lower wins traffic ∝ weight / cost²; undefined for a channel without history. */
  cost(
    strategy: RoutingStrategy,
    channelId: number,
    model: string,
    stream: boolean,
  ): number | undefined;
}

export interface SelectionContext {
  /** 0 for the first attempt, 1 for the first retry, … */
  readonly attempt: number;
  readonly tried: ReadonlySet<number>;
  readonly isCooling: (channelId: number) => boolean;
  /** [0, 1) */
  readonly rng: () => number;
  /**
   * Adaptive routing: the costs of `model` × `stream` under `strategy` (a channel without history
   * is costed as its tier's average). Absent, or strategy 'weighted': static weights only. Plain
   * fields rather than a closure, so a caller can reuse one context for every pick.
   */
  readonly costs?: CostSource;
  readonly strategy?: RoutingStrategy;
  readonly model?: string;
  readonly stream?: boolean;
}

/**
 * Under adaptive routing, the share of picks made uniformly inside the tier: every channel keeps
 * being probed, so one that recovered wins its traffic back.
 */
export const PROBE_SHARE = 0.1;

/** Weight smoothing of one-api and new-api: a weight-0 channel still gets traffic. */
export const WEIGHT_SMOOTHING = 10;

/**
 * Scratch space reused by every pick (a pick is synchronous, so one set serves the process): the
 * hot path allocates nothing. Arrays only grow; `length = 0` would drop their backing store.
 */
const scratch = {
  priorities: [] as number[],
  tierCount: 0,
  eligible: [] as (SelectableChannel | undefined)[],
  eligibleCount: 0,
  costs: new Float64Array(16),
  shares: new Float64Array(16),
};

/** The candidates' distinct priorities, highest first, into scratch.priorities. */
function collectTiers(candidates: readonly SelectableChannel[]): void {
  const priorities = scratch.priorities;
  let count = 0;
  for (const c of candidates) {
    let at = 0;
    while (at < count && (priorities[at] as number) > c.priority) at++;
    if (at < count && priorities[at] === c.priority) continue;
    for (let i = count; i > at; i--) priorities[i] = priorities[i - 1] as number;
    priorities[at] = c.priority;
    count++;
  }
  scratch.tierCount = count;
}

/** A tier's channels still allowed in this request, into scratch.eligible; how many. */
function collectEligible(
  candidates: readonly SelectableChannel[],
  priority: number,
  ctx: SelectionContext,
  allowCooling: boolean,
): number {
  let count = 0;
  for (const c of candidates)
    if (c.priority === priority && !ctx.tried.has(c.id) && (allowCooling || !ctx.isCooling(c.id)))
      scratch.eligible[count++] = c;
  scratch.eligibleCount = count;
  return count;
}

function releaseEligible(): void {
  for (let i = 0; i < scratch.eligibleCount; i++) scratch.eligible[i] = undefined;
  scratch.eligibleCount = 0;
}

const smoothed = (c: SelectableChannel): number => Math.max(0, c.weight) + WEIGHT_SMOOTHING;

function weightedPick(count: number, rng: () => number): SelectableChannel {
  const tier = scratch.eligible;
  let total = 0;
  for (let i = 0; i < count; i++) total += smoothed(tier[i] as SelectableChannel);
  let point = rng() * total;
  for (let i = 0; i < count; i++) {
    point -= smoothed(tier[i] as SelectableChannel);
    if (point < 0) return tier[i] as SelectableChannel;
  }
  return tier[count - 1] as SelectableChannel;
}

function growScratch(count: number): void {
  if (scratch.costs.length >= count) return;
  const size = Math.max(count, scratch.costs.length * 2);
  scratch.costs = new Float64Array(size);
  scratch.shares = new Float64Array(size);
}

/** Weight ∝ (static weight) / cost²; a channel without history costs the tier's average. */
function adaptivePick(
  count: number,
  ctx: SelectionContext,
  source: CostSource,
  strategy: RoutingStrategy,
): SelectableChannel {
  const rng = ctx.rng;
  const tier = scratch.eligible;
  if (count === 1 || rng() < PROBE_SHARE)
    return (tier[Math.floor(rng() * count)] ?? tier[0]) as SelectableChannel;
  growScratch(count);
  const { costs, shares } = scratch;
  let known = 0;
  let sum = 0;
  for (let i = 0; i < count; i++) {
    const cost = source.cost(
      strategy,
      (tier[i] as SelectableChannel).id,
      ctx.model ?? '',
      ctx.stream ?? false,
    );
    // NaN marks "no history"; a cost is never NaN.
    costs[i] = cost ?? NaN;
    if (cost !== undefined) {
      known += 1;
      sum += cost;
    }
  }
  const fair = known > 0 ? sum / known : 1;
  let total = 0;
  for (let i = 0; i < count; i++) {
    const raw = costs[i] as number;
    const cost = Math.max(Number.isNaN(raw) ? fair : raw, Number.MIN_VALUE);
    const share = smoothed(tier[i] as SelectableChannel) / (cost * cost);
    shares[i] = share;
    total += share;
  }
  let point = rng() * total;
  for (let i = 0; i < count; i++) {
    point -= shares[i] as number;
    if (point < 0) return tier[i] as SelectableChannel;
  }
  return tier[count - 1] as SelectableChannel;
}

/** The pick among scratch.eligible: adaptive when the context has costs, else by weight. */
function pickEligible(count: number, ctx: SelectionContext): SelectableChannel {
  const { costs, strategy } = ctx;
  return costs && strategy && strategy !== 'weighted'
    ? adaptivePick(count, ctx, costs, strategy)
    : weightedPick(count, ctx.rng);
}

/** The tier to aim at first, then the nearest lower tiers, then the higher ones: the n-th. */
function tierAt(n: number, target: number, count: number): number {
  return n < count - target ? target + n : count - 1 - n;
}

export function selectChannel<C extends SelectableChannel>(
  candidates: readonly C[],
  ctx: SelectionContext,
): C | undefined {
  // Tiers over every candidate, tried ones included, so attempt i keeps meaning tier i.
  collectTiers(candidates);
  const count = scratch.tierCount;
  const target = Math.min(Math.max(ctx.attempt, 0), count - 1);
  for (let pass = 0; pass < 2; pass++) {
    for (let n = 0; n < count; n++) {
      const priority = scratch.priorities[tierAt(n, target, count)] as number;
      const eligible = collectEligible(candidates, priority, ctx, pass === 1);
      if (eligible === 0) continue;
      const pick = pickEligible(eligible, ctx);
      releaseEligible();
      return pick as C;
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
  /** channel id → model → end (ms); nested so a check builds no key string. */
  private readonly until = new Map<number, Map<string, number>>();
  private sweepAt = 0;

  constructor(private readonly now: () => number) {}

  private end(channelId: number, model: string): number | undefined {
    // Most checks find nothing cooling: one size test, no lookup.
    return this.until.size === 0 ? undefined : this.until.get(channelId)?.get(model);
  }

  /** Cools channel × model for `ms` (e.g. the upstream's Retry-After), never shortening one. */
  cool(channelId: number, model: string, ms: number): void {
    if (!(ms > 0)) return;
    const end = this.now() + ms;
    let models = this.until.get(channelId);
    if (!models) this.until.set(channelId, (models = new Map<string, number>()));
    if ((models.get(model) ?? 0) < end) models.set(model, end);
    this.sweep();
  }

  isCooling(channelId: number, model: string): boolean {
    const end = this.end(channelId, model);
    return end !== undefined && end > this.now();
  }

  /** Remaining ms, 0 when not cooling. */
  remaining(channelId: number, model: string): number {
    return Math.max(0, (this.end(channelId, model) ?? 0) - this.now());
  }

  clear(channelId: number, model: string): void {
    const models = this.until.get(channelId);
    models?.delete(model);
    if (models?.size === 0) this.until.delete(channelId);
  }

  private sweep(): void {
    const now = this.now();
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [channelId, models] of this.until) {
      for (const [model, end] of models) if (end <= now) models.delete(model);
      if (models.size === 0) this.until.delete(channelId);
    }
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
