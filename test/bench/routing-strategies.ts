/**
 * What adaptive routing costs the relay's hot path: the same closed-loop JSON load on three
 * channels of one tier with `RoutingStrategy` switched between runs — weighted, latency, weighted,
 * latency, … (interleaved, so a drift of the shared machine falls on both). The two weighted runs
 * also give the run-to-run noise the latency runs are judged against.
 */
import { load, type LoadResult, type Target } from './bench-load';
import { sleep } from './bench-processes';
import type { ApiSession } from './bench-setup';
import { CHAT_BODY, JSON_MODEL } from './bench-shared';

/** Channels besides the one setUpAccount adds: three share the tier. */
const EXTRA_CHANNELS = 2;
/** Time for an option change to reach the relay's settings (event → projection → cache). */
const OPTION_SETTLE_MS = 500;
/** A spread below this is not told apart from a measurement's own jitter. */
const MIN_NOISE = 0.05;

export interface StrategyRun {
  readonly strategy: 'weighted' | 'latency';
  readonly result: LoadResult;
}

export interface StrategyComparison {
  readonly runs: readonly StrategyRun[];
  /** Mean throughput of the latency runs ÷ of the weighted runs. */
  readonly throughputRatio: number;
  readonly p99Ratio: number;
  /** The weighted runs' spread: |max − min| ÷ their mean (at least MIN_NOISE). */
  readonly noise: number;
  /** Latency's throughput is no further below weighted's than the noise. */
  readonly withinNoise: boolean;
}

export async function addRoutingChannels(admin: ApiSession, upstreamUrl: string): Promise<void> {
  for (let i = 1; i <= EXTRA_CHANNELS; i++)
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name: `bench-route-${i}`,
      key: `sk-bench-route-${i}-000000000000000000000`,
      base_url: upstreamUrl,
      models: JSON_MODEL,
      group: 'default',
    });
}

const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function compareRoutingStrategies(
  admin: ApiSession,
  target: Target,
  options: { connections: number; seconds: number; rounds: number },
  onRun: (run: StrategyRun) => void = () => {},
): Promise<StrategyComparison> {
  await load(target, { body: CHAT_BODY, connections: options.connections, seconds: 2 });
  const runs: StrategyRun[] = [];
  for (let round = 0; round < options.rounds; round++)
    for (const strategy of ['weighted', 'latency'] as const) {
      await admin.call('PUT', '/api/option/', { key: 'RoutingStrategy', value: strategy });
      await sleep(OPTION_SETTLE_MS);
      const result = await load(target, {
        body: CHAT_BODY,
        connections: options.connections,
        seconds: options.seconds,
      });
      runs.push({ strategy, result });
      onRun({ strategy, result });
    }
  await admin.call('PUT', '/api/option/', { key: 'RoutingStrategy', value: 'weighted' });
  const of = (strategy: StrategyRun['strategy'], pick: (r: LoadResult) => number) =>
    runs.filter((r) => r.strategy === strategy).map((r) => pick(r.result));
  const weightedRps = of('weighted', (r) => r.rps);
  const noise = Math.max(
    MIN_NOISE,
    (Math.max(...weightedRps) - Math.min(...weightedRps)) / mean(weightedRps),
  );
  const throughputRatio = mean(of('latency', (r) => r.rps)) / mean(weightedRps);
  return {
    runs,
    throughputRatio,
    p99Ratio: mean(of('latency', (r) => r.p99Ms)) / mean(of('weighted', (r) => r.p99Ms)),
    noise,
    withinNoise: throughputRatio >= 1 - noise,
  };
}
