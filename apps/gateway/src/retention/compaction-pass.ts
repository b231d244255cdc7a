import {
  ARCHIVE_CHAIN_STREAM,
  SYSTEM_ACTOR,
  type RequestRelayed,
  type UsageArchived,
  usageStreamHourStart,
  usageSummaryEvents,
  usageSummaryStreamId,
} from '@tollgate/domain';
import {
  DuplicateEventIdError,
  type EventData,
  type EventStore,
  type RecordedEvent,
} from '@tollgate/event-store';
import { derivedId } from '../infrastructure/derived-id';
import { SCHEMA_VERSION } from '../infrastructure/stream-commands';
import { readArchiveChain, readSummary, summaryComplete, type ArchiveChain } from './archive-chain';
import { writeSegment } from './archive-segment';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
/** Every usage stream's id starts so (`usage-<process>-<yyyymmddhh>`). */
const USAGE_PREFIX = 'usage-';

export interface CompactionInput {
  readonly store: EventStore;
  /** DATA_DIR/archive. */
  readonly archiveFolder: string;
  /** Receipts of hours that ended more than this many days ago go; 0 compacts nothing. */
  readonly retentionDays: number;
  readonly now: () => number;
  /** Asked before each stream: false stops the pass there (a lost scheduler role, a shutdown). */
  readonly mayContinue?: () => boolean;
}

/** One usage stream compacted, and which steps this pass did (a resumed one skips the done). */
export interface CompactedStream {
  readonly source: string;
  readonly hourStart: number;
  readonly receipts: number;
  readonly quota: number;
  readonly summarized: boolean;
  readonly archived: boolean;
  readonly segment: string;
}

type Receipt = RequestRelayed['data'];

const receiptsOf = (events: readonly RecordedEvent[]): Receipt[] =>
  events.filter((e) => e.type === 'RequestRelayed').map((e) => e.data as Receipt);

/**
 * One compaction pass (docs/retention.md): every usage stream whose hour ended more than
 * `retentionDays` before now, oldest first, is summarized, archived, then removed. Each step looks
 * at what an earlier, interrupted pass left (the summary stream, the chain), so a crash anywhere
 * resumes on the next pass to the same events and nothing is compacted twice.
 */
export async function compactUsage(input: CompactionInput): Promise<CompactedStream[]> {
  if (input.retentionDays <= 0) return [];
  const due = await dueStreams(input);
  const done: CompactedStream[] = [];
  let chain = await readArchiveChain(input.store);
  for (const { source, hourStart } of due) {
    if (input.mayContinue && !input.mayContinue()) break;
    const events = await input.store.readStream(source);
    // Removed meanwhile (listed from an engine that keeps deleted events until a scavenge).
    if (events.length === 0) continue;
    const compacted = await compactStream(input, chain, source, hourStart, events);
    if (compacted.archived) chain = await readArchiveChain(input.store);
    done.push(compacted);
  }
  return done;
}

/** The usage streams old enough, oldest hour first (then by id, so every pass has one order). */
async function dueStreams(
  input: CompactionInput,
): Promise<Array<{ source: string; hourStart: number }>> {
  const cutoff = input.now() - input.retentionDays * DAY_MS;
  const streams = await input.store.listStreams({ prefix: USAGE_PREFIX });
  return streams
    .map((source) => ({ source, hourStart: usageStreamHourStart(source) }))
    .filter((s): s is { source: string; hourStart: number } => s.hourStart !== null)
    .filter((s) => s.hourStart + HOUR_MS < cutoff)
    .sort((a, b) => a.hourStart - b.hourStart || (a.source < b.source ? -1 : 1));
}

async function compactStream(
  input: CompactionInput,
  chain: ArchiveChain,
  source: string,
  hourStart: number,
  events: readonly RecordedEvent[],
): Promise<CompactedStream> {
  const receipts = receiptsOf(events);
  const quota = receipts.reduce((sum, r) => sum + r.quota, 0);
  const summarized = await summarize(input, source, hourStart, receipts);
  const link = chain.bySource.get(source);
  let segment = link?.segment;
  if (!segment) {
    const written = await writeSegment(input.archiveFolder, source, events);
    const data: UsageArchived['data'] = {
      source,
      hourStart,
      segment: written.segment,
      sha256: written.sha256,
      previousSha256: chain.lastSha256,
      bytes: written.bytes,
      receipts: receipts.length,
      quota,
    };
    const event = systemEvent(`archive:${source}`, 'UsageArchived', data, input.now());
    await input.store.append(ARCHIVE_CHAIN_STREAM, [event], chain.expected);
    segment = written.segment;
  }
  // Last: until here the receipts are the truth; from here the summary and the segment are.
  await input.store.deleteStream(source);
  return {
    source,
    hourStart,
    receipts: receipts.length,
    quota,
    summarized,
    archived: !link,
    segment,
  };
}

/**
 * The first step alone for one usage stream: its summary appended, nothing archived or removed.
 * What a pass that died right after that step leaves (the crash tests start from here).
 */
export async function summarizeUsageStream(
  input: Pick<CompactionInput, 'store' | 'now'>,
  source: string,
): Promise<boolean> {
  const hourStart = usageStreamHourStart(source);
  if (hourStart === null) throw new Error(`not a usage stream: ${source}`);
  const events = await input.store.readStream(source);
  const receipts = receiptsOf(events);
  return summarize(input, source, hourStart, receipts);
}

/** Appends the chunks the summary stream lacks; false when it was already complete. */
async function summarize(
  input: Pick<CompactionInput, 'store' | 'now'>,
  source: string,
  hourStart: number,
  receipts: readonly Receipt[],
): Promise<boolean> {
  const recorded = await readSummary(input.store, source);
  if (summaryComplete(recorded.chunks)) return false;
  const missing = usageSummaryEvents(source, hourStart, receipts)
    .filter((e) => !recorded.chunks.has(e.data.chunk))
    .map((e) => systemEvent(`summary:${source}:${e.data.chunk}`, e.type, e.data, input.now()));
  try {
    await input.store.append(
      usageSummaryStreamId(source),
      missing,
      recorded.revision ?? 'no_stream',
    );
  } catch (error) {
    // A pass that wrote them and died before hearing so: they are there.
    if (!(error instanceof DuplicateEventIdError)) throw error;
  }
  return true;
}

function systemEvent(key: string, type: string, data: unknown, now: number): EventData {
  return {
    id: derivedId(key),
    type,
    data,
    metadata: {
      schemaVersion: SCHEMA_VERSION,
      actor: SYSTEM_ACTOR,
      correlationId: key,
      occurredAt: new Date(now).toISOString(),
    },
  };
}
