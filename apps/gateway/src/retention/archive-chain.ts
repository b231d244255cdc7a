import {
  ARCHIVE_CHAIN_STREAM,
  type UsageArchived,
  type UsageSummarized,
  usageSummaryStreamId,
} from '@tollgate/domain';
import type { EventStore, ExpectedRevision } from '@tollgate/event-store';

/** The archive chain as read: its segments in order and what the next append expects. */
export interface ArchiveChain {
  readonly links: ReadonlyArray<UsageArchived['data']>;
  readonly bySource: ReadonlyMap<string, UsageArchived['data']>;
  /** The chain's revision, for the next append (the chain cannot fork). */
  readonly expected: ExpectedRevision;
  /** The last segment's hash: the next segment's `previousSha256`. */
  readonly lastSha256: string | null;
}

export async function readArchiveChain(store: EventStore): Promise<ArchiveChain> {
  const events = await store.readStream(ARCHIVE_CHAIN_STREAM);
  const links = events
    .filter((e) => e.type === 'UsageArchived')
    .map((e) => e.data as UsageArchived['data']);
  const last = events.at(-1);
  return {
    links,
    bySource: new Map(links.map((link) => [link.source, link])),
    expected: last ? last.revision : 'no_stream',
    lastSha256: links.at(-1)?.sha256 ?? null,
  };
}

/** The summary chunks recorded for a source, by chunk number, and the stream's revision. */
export async function readSummary(
  store: EventStore,
  source: string,
): Promise<{ chunks: Map<number, UsageSummarized['data']>; revision: number | null }> {
  const events = await store.readStream(usageSummaryStreamId(source));
  const chunks = new Map<number, UsageSummarized['data']>();
  for (const event of events)
    if (event.type === 'UsageSummarized') {
      const data = event.data as UsageSummarized['data'];
      chunks.set(data.chunk, data);
    }
  return { chunks, revision: events.at(-1)?.revision ?? null };
}

/** True when every chunk the summary announces is recorded. */
export function summaryComplete(chunks: ReadonlyMap<number, UsageSummarized['data']>): boolean {
  const first = chunks.get(0);
  if (!first) return false;
  for (let chunk = 0; chunk < first.chunks; chunk += 1) if (!chunks.has(chunk)) return false;
  return true;
}
