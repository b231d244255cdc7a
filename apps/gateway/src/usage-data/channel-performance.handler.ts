import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import type { ReadStore } from '@tollgate/read-store';
import { CHANNELS, type ChannelDocument } from '../channels/channel.document';
import { READ_STORE } from '../infrastructure/injection-tokens';
import {
  CHANNEL_PERFORMANCE,
  PERFORMANCE_BUCKET_SECONDS,
  type ChannelPerformanceDocument,
} from './channel-performance.document';
import { mergeCounts, percentileMs } from './latency-histogram';

const MEDIAN = 0.5;
const TAIL = 0.99;

export class ChannelPerformanceQuery extends Query<ChannelPerformanceDto[]> {
  constructor(
    readonly windowMinutes: number,
    readonly now: number = Math.floor(Date.now() / 1000),
  ) {
    super();
  }
}

interface Sum {
  channel_id: number;
  model: string;
  calls: number;
  answered: number;
  failed: number;
  l: Record<string, number>;
  f: Record<string, number>;
}

/** Sums the 5-minute rows per channel × model, histograms merged. */
export function summedPerformance(rows: readonly ChannelPerformanceDocument[]): Sum[] {
  const sums = new Map<string, Sum>();
  for (const row of rows) {
    const key = `${row.channel_id}:${row.model}`;
    const sum = sums.get(key) ?? {
      channel_id: row.channel_id,
      model: row.model,
      ...{ calls: 0, answered: 0, failed: 0, l: {}, f: {} },
    };
    sum.calls += row.calls;
    sum.answered += row.answered;
    sum.failed += row.failed;
    mergeCounts(sum.l, row.l);
    mergeCounts(sum.f, row.f);
    sums.set(key, sum);
  }
  return [...sums.values()];
}

/** The figures of each channel × model, its share of the model's answers, by model then calls. */
export function performanceRows(
  sums: readonly Sum[],
  names: ReadonlyMap<number, string>,
): ChannelPerformanceDto[] {
  const answeredPerModel = new Map<string, number>();
  for (const s of sums)
    answeredPerModel.set(s.model, (answeredPerModel.get(s.model) ?? 0) + s.answered);
  return sums
    .map((s) => {
      const modelAnswered = answeredPerModel.get(s.model) ?? 0;
      return {
        channel_id: s.channel_id,
        channel_name: names.get(s.channel_id) ?? `#${s.channel_id}`,
        model: s.model,
        calls: s.calls,
        answered: s.answered,
        failed: s.failed,
        error_rate: s.calls > 0 ? s.failed / s.calls : 0,
        share: modelAnswered > 0 ? s.answered / modelAnswered : 0,
        p50_ms: percentileMs(s.l, MEDIAN),
        p99_ms: percentileMs(s.l, TAIL),
        ttft_p50_ms: percentileMs(s.f, MEDIAN),
        ttft_p99_ms: percentileMs(s.f, TAIL),
      };
    })
    .sort(
      (a, b) => a.model.localeCompare(b.model) || b.calls - a.calls || a.channel_id - b.channel_id,
    );
}

/**
 * The channel performance over the last `windowMinutes` (the 5-minute row the window's start falls
 * in is counted whole): per channel × model, with the channel's present name.
 */
@QueryHandler(ChannelPerformanceQuery)
export class ChannelPerformanceHandler implements IQueryHandler<ChannelPerformanceQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ windowMinutes, now }: ChannelPerformanceQuery): Promise<ChannelPerformanceDto[]> {
    const start = now - windowMinutes * 60;
    const rows = await this.readStore
      .collection<ChannelPerformanceDocument>(CHANNEL_PERFORMANCE)
      .find({ created_at: { $gte: start - (start % PERFORMANCE_BUCKET_SECONDS) } });
    const sums = summedPerformance(rows);
    const ids = [...new Set(sums.map((s) => s.channel_id))];
    const channels = await this.readStore
      .collection<ChannelDocument>(CHANNELS)
      .find({ id: { $in: ids } });
    return performanceRows(sums, new Map(channels.map((c) => [c.id, c.name])));
  }
}
