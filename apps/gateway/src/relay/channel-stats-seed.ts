import { eventTimeMs, type RecordedEvent } from '@tollgate/event-store';
import type { RequestFailed, RequestRelayed } from '@tollgate/domain';
import type { ChannelStats } from '@tollgate/relay';

/** How far back the figures are rebuilt at start-up: about what the moving averages remember. */
export const SEED_WINDOW_MS = 10 * 60_000;
/** The most recent calls read to rebuild them (the averages weigh the last ~10 calls anyway). */
export const MAX_SEED_CALLS = 5_000;
/** The events that carry a relayed call's outcome per channel. */
export const SEED_EVENT_TYPES: readonly string[] = ['RequestRelayed', 'RequestFailed'];

type CallEvent = RequestRelayed | RequestFailed;

/**
 * Feeds the calls that ended at or after `sinceMs` into `stats`, oldest first (the error rate's
 * fading needs time order; processes' receipts interleave in the store): a receipt's channel
 * answered and each earlier channel of its chain failed an attempt; every channel of a failure's
 * chain failed. How many attempts it fed.
 */
export function seedChannelStats(
  stats: Pick<ChannelStats, 'seed'>,
  events: readonly RecordedEvent[],
  sinceMs: number,
): number {
  const calls = events
    .filter((e) => SEED_EVENT_TYPES.includes(e.type))
    .map((e) => ({ at: eventTimeMs(e), event: { type: e.type, data: e.data } as CallEvent }))
    .filter((c) => c.at >= sinceMs && !('task' in c.event.data && c.event.data.task))
    .sort((a, b) => a.at - b.at);
  let fed = 0;
  for (const { at, event } of calls) {
    const d = event.data;
    const answered = event.type === 'RequestRelayed';
    const chain = d.channelChain.length > 0 ? d.channelChain : [d.channelId];
    for (let i = 0; i < chain.length; i++) {
      const id = chain[i] as number;
      const ok = answered && i === chain.length - 1;
      stats.seed(id, d.model, d.stream, { ok, latencyMs: ok ? latencyOf(event) : undefined }, at);
      fed += 1;
    }
  }
  return fed;
}

/**
 * As the relay measures it live: a stream by its first token, else the whole call. The receipt
 * times the request, earlier failed attempts included: an answer after a retry looks slower.
 */
function latencyOf(event: CallEvent): number {
  if (event.type === 'RequestRelayed' && event.data.stream && event.data.firstTokenMs !== null)
    return event.data.firstTokenMs;
  return event.data.useTimeMs;
}
