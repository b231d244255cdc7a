import { eventTimeMs } from '@tollgate/event-store';
import type { Projection } from '@tollgate/read-store';
import {
  FAILURE_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type RequestFailed,
  type RequestRelayed,
} from '@tollgate/domain';
import { CHANNEL_PERFORMANCE, PERFORMANCE_BUCKET_SECONDS } from './channel-performance.document';
import { bucketOf } from './latency-histogram';

type Counts = Record<string, number>;

/** The attempts a request made: each channel of the chain but the answering one failed once. */
export function attemptsOf(
  type: string,
  data: RequestRelayed['data'] | RequestFailed['data'],
): Array<{ channelId: number; $inc: Counts }> {
  const chain = data.channelChain.length > 0 ? data.channelChain : [data.channelId];
  const answered = type === 'RequestRelayed';
  const failedIds = answered ? chain.slice(0, -1) : chain;
  const attempts: Array<{ channelId: number; $inc: Counts }> = failedIds.map((channelId) => ({
    channelId,
    $inc: { calls: 1, failed: 1, answered: 0 },
  }));
  if (answered) {
    const relayed = data as RequestRelayed['data'];
    const $inc: Counts = { calls: 1, failed: 0, answered: 1 };
    if (!relayed.stream) $inc[`l.${bucketOf(relayed.useTimeMs)}`] = 1;
    else if (relayed.firstTokenMs !== null) $inc[`f.${bucketOf(relayed.firstTokenMs)}`] = 1;
    attempts.push({ channelId: relayed.channelId, $inc });
  }
  return attempts.filter((a) => a.channelId > 0);
}

/**
 * channel_performance: what each channel did per model and 5 minutes (the console's channel
 * performance): attempts, failed attempts, answers, and latency histograms of the answers (the
 * total time of non-stream calls, the first token of stream calls). Rows are upserted with $inc:
 * a request adds a row only when it opens a new channel × model × 5 minutes. Failed requests are
 * counted while ErrorLogEnabled records them; failed attempts of answered requests always.
 */
export const channelPerformanceProjection: Projection = {
  name: 'channel-performance',
  version: 1,
  collections: [{ name: CHANNEL_PERFORMANCE, indexes: [{ fields: { created_at: 1 } }] }],
  eventTypes: [...USAGE_EVENT_TYPES, ...FAILURE_EVENT_TYPES],
  apply: () => Promise.resolve(),
  batched: {
    eventTypes: [...USAGE_EVENT_TYPES, ...FAILURE_EVENT_TYPES],
    apply(recorded, writes) {
      const d = recorded.data as RequestRelayed['data'] | RequestFailed['data'];
      const seconds = Math.floor(eventTimeMs(recorded) / 1000);
      const at = seconds - (seconds % PERFORMANCE_BUCKET_SECONDS);
      for (const { channelId, $inc } of attemptsOf(recorded.type, d))
        writes.update(
          CHANNEL_PERFORMANCE,
          `${at}:${channelId}:${d.model}`,
          { $setOnInsert: { channel_id: channelId, model: d.model, created_at: at }, $inc },
          { upsert: true },
        );
    },
  },
};
