/**
 * What each channel × model has recently done, kept on the relay's path for adaptive routing:
 * latency (first token for streams, the whole answer otherwise) and error rate as moving averages
 * over the last calls, and the calls open now. O(1) per call, bounded by channels × models.
 */

/** How a priority tier's traffic is shared: by static weight (one-api's, new-api's), or as observed. */
export type RoutingStrategy = 'weighted' | 'latency' | 'least-busy';
export const ROUTING_STRATEGIES: readonly RoutingStrategy[] = ['weighted', 'latency', 'least-busy'];

/** Weight of the newest call in the moving averages: ~the last 10 calls count. */
const SMOOTHING = 0.1;
/**
 * What a failure costs the client, in milliseconds of latency: the failed call and the retry
 * elsewhere (a channel failing half its calls looks half a second slow, however fast it fails).
 */
const FAILURE_COST_MS = 1000;

/**
 * The error rate also fades with time (halving every this many ms): a channel that failed and
 * then got little traffic is not judged on old failures for ever.
 */
const ERROR_HALF_LIFE_MS = 5_000;

/** One channel × model × (stream or not). */
class CallStats {
  /** Milliseconds; 0 until the first answered call. */
  latencyMs = 0;
  /** Failures among recent calls, 0…1, as of `errorAt`. */
  private errorRate = 0;
  private errorAt = 0;
  calls = 0;
  open = 0;

  errorRateAt(now: number): number {
    if (this.errorRate === 0) return 0;
    return this.errorRate * 2 ** (-Math.max(0, now - this.errorAt) / ERROR_HALF_LIFE_MS);
  }

  ended(latencyMs: number | undefined, ok: boolean, now: number): void {
    this.open = Math.max(0, this.open - 1);
    this.record(latencyMs, ok, now);
  }

  /** A call's outcome into the averages (`now`: when it ended; in time order). */
  record(latencyMs: number | undefined, ok: boolean, now: number): void {
    this.calls += 1;
    const failed = ok ? 0 : 1;
    const rate = this.calls === 1 ? failed : this.errorRateAt(now);
    this.errorRate = rate + SMOOTHING * (failed - rate);
    this.errorAt = now;
    if (ok && latencyMs !== undefined)
      this.latencyMs =
        this.latencyMs === 0
          ? latencyMs
          : this.latencyMs + SMOOTHING * (latencyMs - this.latencyMs);
  }
}

export class ChannelStats {
  constructor(private readonly now: () => number = Date.now) {}

  /** channel id → model → [non-stream, stream]. */
  private readonly byChannel = new Map<number, Map<string, [CallStats, CallStats]>>();

  private stats(channelId: number, model: string, stream: boolean): CallStats {
    let models = this.byChannel.get(channelId);
    if (!models)
      this.byChannel.set(channelId, (models = new Map<string, [CallStats, CallStats]>()));
    let pair = models.get(model);
    if (!pair) models.set(model, (pair = [new CallStats(), new CallStats()]));
    return pair[stream ? 1 : 0];
  }

  /** A call to the channel starts. */
  began(channelId: number, model: string, stream: boolean): void {
    this.stats(channelId, model, stream).open += 1;
  }

  /** The call ended: answered (with its latency) or failed. */
  ended(
    channelId: number,
    model: string,
    stream: boolean,
    outcome: { readonly ok: boolean; readonly latencyMs?: number },
  ): void {
    this.stats(channelId, model, stream).ended(outcome.latencyMs, outcome.ok, this.now());
  }

  /**
   * A call that ended at `atMs`, before this process started (rebuilt from the receipts): the
   * averages as if it had been seen live. Feed them oldest first, before live calls, so an old
   * failure has faded by now as it would have; open calls are not touched.
   */
  seed(
    channelId: number,
    model: string,
    stream: boolean,
    outcome: { readonly ok: boolean; readonly latencyMs?: number },
    atMs: number,
  ): void {
    this.stats(channelId, model, stream).record(outcome.latencyMs, outcome.ok, atMs);
  }

  /**
   * The channel's cost under a strategy (lower wins more traffic); undefined when it has no
   * history yet (the selector gives it a fair share).
   */
  cost(
    strategy: RoutingStrategy,
    channelId: number,
    model: string,
    stream: boolean,
  ): number | undefined {
    const s = this.byChannel.get(channelId)?.get(model)?.[stream ? 1 : 0];
    if (strategy === 'least-busy') return 1 + (s?.open ?? 0);
    if (!s || s.calls === 0) return undefined;
    // A channel that only failed has no latency yet: as slow as its failures make it.
    const latency = s.latencyMs > 0 ? s.latencyMs : 1;
    return latency + FAILURE_COST_MS * s.errorRateAt(this.now());
  }

  /** A channel's figures, for the console and tests. */
  snapshot(
    channelId: number,
    model: string,
    stream: boolean,
  ): { latencyMs: number; errorRate: number; calls: number; open: number } | undefined {
    const s = this.byChannel.get(channelId)?.get(model)?.[stream ? 1 : 0];
    return (
      s && {
        latencyMs: s.latencyMs,
        errorRate: s.errorRateAt(this.now()),
        calls: s.calls,
        open: s.open,
      }
    );
  }

  /** A deleted channel's figures go with it. */
  forget(channelId: number): void {
    this.byChannel.delete(channelId);
  }
}
