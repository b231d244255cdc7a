import { isDeepStrictEqual } from 'node:util';
import {
  ARCHIVE_CHAIN_STREAM,
  summarizeReceipts,
  type RequestRelayed,
  type UsageArchived,
  type UsageSummaryRow,
} from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import { readSummary } from '../retention/archive-chain';
import { parseSegment, readSegmentBytes, sha256Hex } from '../retention/archive-segment';

/** One thing wrong with one archive segment. */
export interface ArchiveFailure {
  /** 0-based revision of its `UsageArchived` on the chain. */
  readonly link: number;
  readonly source: string;
  readonly segment: string;
  readonly problem: 'chain_link' | 'missing' | 'sha256' | 'unreadable' | 'summary' | 'totals';
  readonly detail: string;
}

export interface ArchiveReport {
  readonly ok: boolean;
  readonly segments: number;
  readonly failures: readonly ArchiveFailure[];
}

type Link = UsageArchived['data'];

/**
 * `ledger:verify --archive`: walks the archive chain; for every `UsageArchived`, its
 * `previousSha256` is the previous event's `sha256`, the segment file is there with that SHA-256,
 * and the sums of its receipts are the rows of its source's `UsageSummarized` chunks.
 */
export async function verifyArchive(store: EventStore, folder: string): Promise<ArchiveReport> {
  const chain = await store.readStream(ARCHIVE_CHAIN_STREAM);
  const failures: ArchiveFailure[] = [];
  let previous: string | null = null;
  let segments = 0;
  for (const event of chain) {
    if (event.type !== 'UsageArchived') continue;
    const link = event.data as Link;
    segments += 1;
    const fail = (problem: ArchiveFailure['problem'], detail: string) =>
      failures.push({
        link: event.revision,
        source: link.source,
        segment: link.segment,
        problem,
        detail,
      });
    if (link.previousSha256 !== previous)
      fail(
        'chain_link',
        `previousSha256 ${String(link.previousSha256)}, the previous segment's sha256 is ${String(previous)}`,
      );
    previous = link.sha256;
    await checkSegment(store, folder, link, fail);
  }
  return { ok: failures.length === 0, segments, failures };
}

async function checkSegment(
  store: EventStore,
  folder: string,
  link: Link,
  fail: (problem: ArchiveFailure['problem'], detail: string) => void,
): Promise<void> {
  const bytes = await readSegmentBytes(folder, link.segment);
  if (!bytes) return fail('missing', `no file ${link.segment} in ${folder}`);
  const sha256 = sha256Hex(bytes);
  if (sha256 !== link.sha256)
    fail('sha256', `the file's SHA-256 is ${sha256}, the chain says ${link.sha256}`);
  let receipts: Array<RequestRelayed['data']>;
  try {
    receipts = (await parseSegment(bytes))
      .filter((line) => line.type === 'RequestRelayed')
      .map((line) => line.data as RequestRelayed['data']);
  } catch (error) {
    return fail(
      'unreadable',
      `not gzip JSON lines: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const quota = receipts.reduce((sum, r) => sum + r.quota, 0);
  if (receipts.length !== link.receipts || quota !== link.quota)
    fail(
      'totals',
      `${receipts.length} receipts, Σ quota ${quota}; the chain says ${link.receipts}, ${link.quota}`,
    );
  const { chunks } = await readSummary(store, link.source);
  const rows: UsageSummaryRow[] = [...chunks.keys()]
    .sort((a, b) => a - b)
    .flatMap((chunk) => chunks.get(chunk)!.rows);
  const expected = summarizeReceipts(receipts);
  if (!isDeepStrictEqual(rows, expected))
    fail(
      'summary',
      `the summary has ${rows.length} row(s) (${chunks.size} chunk(s)), the segment's receipts sum to ${expected.length} row(s) that differ`,
    );
}
