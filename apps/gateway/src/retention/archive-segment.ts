import { createHash } from 'node:crypto';
import { mkdir, open, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { parsePosition, serializePosition, type RecordedEvent } from '@tollgate/event-store';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The folder of archive segments inside DATA_DIR. */
export const ARCHIVE_FOLDER = 'archive';

/**
 * One archived event, one JSON line of a segment: the recorded event as the store gave it, its
 * `$all` position in its text form (`commit/prepare`) and its time as ISO 8601.
 */
export interface ArchivedEventLine {
  readonly id: string;
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly position: string;
  readonly recordedAt: string;
  readonly data: unknown;
  readonly metadata: Record<string, unknown>;
}

export interface WrittenSegment {
  /** File name inside the archive folder. */
  readonly segment: string;
  readonly sha256: string;
  readonly bytes: number;
}

export function segmentFileName(source: string): string {
  return `${source}.jsonl.gz`;
}

export function toArchivedLine(event: RecordedEvent): ArchivedEventLine {
  return {
    id: event.id,
    streamId: event.streamId,
    revision: event.revision,
    type: event.type,
    position: serializePosition(event.position),
    recordedAt: event.recordedAt.toISOString(),
    data: event.data,
    metadata: event.metadata,
  };
}

/** Back to a recorded event (an investigation reads a segment as the store would have). */
export function fromArchivedLine(line: ArchivedEventLine): RecordedEvent {
  return {
    ...line,
    position: parsePosition(line.position),
    recordedAt: new Date(line.recordedAt),
  };
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * Writes a stream's events as a gzip JSON-lines segment: to a temporary file, fsynced, renamed
 * over any earlier (partial) file of the same name, the folder fsynced, so a crash leaves either
 * no segment or a whole one. The same events give the same bytes (gzip stores no time here).
 */
export async function writeSegment(
  folder: string,
  source: string,
  events: readonly RecordedEvent[],
): Promise<WrittenSegment> {
  await mkdir(folder, { recursive: true });
  const text = events.map((e) => `${JSON.stringify(toArchivedLine(e))}\n`).join('');
  const bytes = await gzipAsync(Buffer.from(text, 'utf8'));
  const segment = segmentFileName(source);
  const target = join(folder, segment);
  const temporary = `${target}.tmp`;
  const file = await open(temporary, 'w');
  try {
    await file.writeFile(bytes);
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(temporary, target);
  await syncFolder(folder);
  return { segment, sha256: sha256Hex(bytes), bytes: bytes.length };
}

/** The renamed entry is durable only once its folder is (not possible on every platform). */
async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync().catch(() => undefined);
  } finally {
    await handle.close();
  }
}

/** A segment's raw bytes, or null when the file is not there. */
export async function readSegmentBytes(folder: string, segment: string): Promise<Buffer | null> {
  try {
    return await readFile(join(folder, segment));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The events of a segment's bytes (throws on bytes that are not a gzip of JSON lines). */
export async function parseSegment(bytes: Buffer): Promise<ArchivedEventLine[]> {
  const text = (await gunzipAsync(bytes)).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as ArchivedEventLine);
}
