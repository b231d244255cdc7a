import { usageStreamHourStart, type UsageSummarized, type UsageSummaryRow } from '@tollgate/domain';

/**
 * The summaries that stand in for removed usage streams (docs/ledger.md "Retention"). Readers that
 * add receipts up subscribe to these beside `RequestRelayed`.
 */
export const USAGE_SUMMARY_EVENT_TYPES: readonly UsageSummarized['type'][] = ['UsageSummarized'];

/**
 * The reader rule for an in-memory reader (replayed at each start): a summary counts only when no
 * receipt of its `source` stream was counted. One entry per usage stream (process × hour); receipts
 * on other streams (a task's charge on `task-<id>`) are never summarized, so they are not kept.
 */
export class SummarySources {
  private readonly counted = new Set<string>();

  /** A receipt of `streamId` was counted. */
  receipt(streamId: string): void {
    // Every receipt passes here: the set answers the common case without parsing the id.
    if (this.counted.has(streamId)) return;
    if (usageStreamHourStart(streamId) !== null) this.counted.add(streamId);
  }

  /** The rows of a summary to count: none when its source's receipts were counted. */
  rows(summary: UsageSummarized['data']): readonly UsageSummaryRow[] {
    return this.counted.has(summary.source) ? [] : summary.rows;
  }
}

/** What a group of rows adds up to. */
export interface RowSums {
  requests: number;
  quota: number;
  promptTokens: number;
  completionTokens: number;
}

/**
 * A summary's rows added up per key (user, token, channel, …); rows whose key is null are left
 * out. A guarded write per document (one per event position) must carry all of its rows at once.
 */
export function sumRows<K>(
  rows: readonly UsageSummaryRow[],
  key: (row: UsageSummaryRow) => K | null,
): Map<K, RowSums> {
  const sums = new Map<K, RowSums>();
  for (const row of rows) {
    const k = key(row);
    if (k === null) continue;
    const sum = sums.get(k) ?? { requests: 0, quota: 0, promptTokens: 0, completionTokens: 0 };
    sum.requests += row.requests;
    sum.quota += row.quota;
    sum.promptTokens += row.promptTokens;
    sum.completionTokens += row.completionTokens;
    sums.set(k, sum);
  }
  return sums;
}
