import {
  type ChannelStats,
  type CooldownBook,
  type RoutingStrategy,
  type SelectionContext,
  selectChannel,
} from '@tollgate/relay';
import type { RoutedChannel } from './relay-ports';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

const NONE_TRIED: ReadonlySet<number> = new Set();

/**
 * The relay's channel pick for one attempt, allocating nothing: one selection context, filled in
 * place for each pick (a pick is synchronous, so no two share it), and one cooling check that
 * reads the model of the pick under way instead of a closure per request.
 */
export class ChannelPicker {
  private readonly ctx: Writable<SelectionContext>;

  constructor(stats: ChannelStats, cooldowns: CooldownBook, anyModel: string) {
    const ctx: Writable<SelectionContext> = {
      attempt: 0,
      tried: NONE_TRIED,
      isCooling: (id) =>
        cooldowns.isCooling(id, ctx.model ?? '') || cooldowns.isCooling(id, anyModel),
      rng: Math.random,
      costs: stats,
      strategy: 'weighted',
      model: '',
      stream: false,
    };
    this.ctx = ctx;
  }

  pick(
    candidates: readonly RoutedChannel[],
    attempt: number,
    tried: ReadonlySet<number>,
    call: { readonly model: string; readonly stream: boolean },
    strategy: RoutingStrategy,
    rng: () => number,
  ): RoutedChannel | undefined {
    const ctx = this.ctx;
    ctx.attempt = attempt;
    ctx.tried = tried;
    ctx.rng = rng;
    ctx.strategy = strategy;
    ctx.model = call.model;
    ctx.stream = call.stream;
    const channel = selectChannel(candidates, ctx);
    // The request's set of tried channels is not held past its pick.
    ctx.tried = NONE_TRIED;
    return channel;
  }
}
