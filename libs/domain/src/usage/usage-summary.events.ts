import type { DomainEvent } from '../shared/decider';
import type { RequestRelayed } from './usage.events';

/**
 * Retention (docs/retention.md): a usage stream older than the retention window is folded into
 * exact hourly sums, written to a hash-chained archive segment, then removed from the live store.
 * The sums stand in for its receipts for everything that adds receipts up (balances, token and
 * channel counters, the hourly statistics, `ledger:verify`).
 *
 * A reader counts a `UsageSummarized` only when it counted no receipt of its `source` stream: the
 * summary is appended before the stream is removed, so a reader that was live (or a replay between
 * the two steps) has already counted the receipts, and a replay after the removal has only the sums.
 */

/** One group of receipts of the same payer, token, channel, model and group within the hour. */
export interface UsageSummaryRow {
  readonly userId: number;
  /** 0 for the playground. */
  readonly tokenId: number;
  readonly channelId: number;
  /** The billed model (a fallback's answering model, as on the receipt). */
  readonly model: string;
  readonly group: string;
  readonly requests: number;
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Quota units charged: the exact sum of the receipts' `quota`. */
  readonly quota: number;
}

/** Rows per `UsageSummarized` event: a busy hour's summary is split so no event grows unbounded. */
export const USAGE_SUMMARY_CHUNK_ROWS = 1000;

export type UsageSummarized = DomainEvent<
  'UsageSummarized',
  {
    /** The usage stream these sums replace, `usage-<process>-<yyyymmddhh>`. */
    readonly source: string;
    /** Start of the source's UTC hour, ms since the epoch. */
    readonly hourStart: number;
    /** 0-based part of the summary, and how many parts it has. */
    readonly chunk: number;
    readonly chunks: number;
    readonly rows: readonly UsageSummaryRow[];
  }
>;

/**
 * One archive segment written: the source stream's events, gzip-compressed JSON lines, under
 * `DATA_DIR/archive/`. Appended to the archive chain with its expected revision, so the chain
 * cannot fork; `previousSha256` is the segment hash of the chain's previous event.
 */
export type UsageArchived = DomainEvent<
  'UsageArchived',
  {
    readonly source: string;
    readonly hourStart: number;
    /** File name inside `DATA_DIR/archive/`. */
    readonly segment: string;
    /** SHA-256 (hex) of the segment file's bytes. */
    readonly sha256: string;
    /** The previous segment's `sha256`; null for the first segment. */
    readonly previousSha256: string | null;
    readonly bytes: number;
    readonly receipts: number;
    /** Σ quota of the segment's receipts (equals the summary's Σ rows' quota). */
    readonly quota: number;
  }
>;

export type RetentionEvent = UsageSummarized | UsageArchived;

/** The stream that holds the summary of a usage stream. */
export function usageSummaryStreamId(source: string): string {
  return `usagesum-${source}`;
}

/** The hash chain of archive segments. */
export const ARCHIVE_CHAIN_STREAM = 'usage-archive-chain';

const USAGE_STREAM = /^usage-(.+)-(\d{4})(\d{2})(\d{2})(\d{2})$/;

/** The start of a usage stream's UTC hour (ms), or null when the id is not a usage stream's. */
export function usageStreamHourStart(streamId: string): number | null {
  const match = USAGE_STREAM.exec(streamId);
  if (!match) return null;
  const [, , year, month, day, hour] = match;
  return Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour));
}

type ReceiptData = RequestRelayed['data'];

function rowKey(receipt: ReceiptData): string {
  return JSON.stringify([
    receipt.userId,
    receipt.tokenId,
    receipt.channelId,
    receipt.model,
    receipt.group,
  ]);
}

/**
 * The exact sums of a stream's receipts, one row per payer × token × channel × model × group,
 * in a fixed order (so two runs over the same receipts give the same events).
 */
export function summarizeReceipts(receipts: readonly ReceiptData[]): UsageSummaryRow[] {
  const rows = new Map<string, UsageSummaryRow>();
  for (const receipt of receipts) {
    const key = rowKey(receipt);
    const row = rows.get(key);
    rows.set(key, {
      userId: receipt.userId,
      tokenId: receipt.tokenId,
      channelId: receipt.channelId,
      model: receipt.model,
      group: receipt.group,
      requests: (row?.requests ?? 0) + 1,
      promptTokens: (row?.promptTokens ?? 0) + receipt.promptTokens,
      completionTokens: (row?.completionTokens ?? 0) + receipt.completionTokens,
      quota: (row?.quota ?? 0) + receipt.quota,
    });
  }
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/** The summary events of one usage stream, split into chunks of `USAGE_SUMMARY_CHUNK_ROWS`. */
export function usageSummaryEvents(
  source: string,
  hourStart: number,
  receipts: readonly ReceiptData[],
): UsageSummarized[] {
  const rows = summarizeReceipts(receipts);
  const chunks = Math.max(1, Math.ceil(rows.length / USAGE_SUMMARY_CHUNK_ROWS));
  return Array.from({ length: chunks }, (_, chunk) => ({
    type: 'UsageSummarized' as const,
    data: {
      source,
      hourStart,
      chunk,
      chunks,
      rows: rows.slice(chunk * USAGE_SUMMARY_CHUNK_ROWS, (chunk + 1) * USAGE_SUMMARY_CHUNK_ROWS),
    },
  }));
}
