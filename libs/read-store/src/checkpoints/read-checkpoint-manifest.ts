import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parsePosition, type Position } from '@tollgate/event-store/event-store.port';

/** A manifest's name: `read-<time>.json`, beside its database `read-<time>.sqlite`. */
export const MANIFEST_SUFFIX = '.json';
export const DATABASE_SUFFIX = '.sqlite';
export const CHECKPOINT_PREFIX = 'read-';
/** Files being written: never read as a checkpoint, removed once stale. */
export const TEMP_PREFIX = 'tmp-';
export const READ_CHECKPOINT_FORMAT = 1;

/** One projection in a checkpoint: its read model holds every event of the log up to `position`. */
export interface CheckpointedProjection {
  readonly name: string;
  readonly version: number;
  /** Serialized position (serializePosition). */
  readonly position: string;
}

/** The JSON beside a read-model checkpoint's database file. */
export interface ReadCheckpointManifest {
  readonly format: typeof READ_CHECKPOINT_FORMAT;
  /** The database file's name, in the same directory. */
  readonly file: string;
  /** The oldest of the projections' positions: a replay from it misses nothing. */
  readonly position: string;
  readonly projections: readonly CheckpointedProjection[];
  /** ISO time the copy was taken. */
  readonly takenAt: string;
  readonly bytes: number;
  readonly sha256: string;
}

/** A manifest as found on disk, with the name it was read from. */
export interface FoundCheckpoint {
  readonly name: string;
  readonly manifest: ReadCheckpointManifest;
}

export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The checkpoints in `dir`, newest first. A manifest that cannot be read or has the wrong shape is
 * reported through `onSkip` and left out; the database files are not checked here (see verify).
 */
export async function listReadCheckpoints(
  dir: string,
  onSkip: (name: string, why: string) => void = () => undefined,
): Promise<FoundCheckpoint[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const found: FoundCheckpoint[] = [];
  for (const name of names) {
    if (!name.startsWith(CHECKPOINT_PREFIX) || !name.endsWith(MANIFEST_SUFFIX)) continue;
    try {
      found.push({ name, manifest: parseManifest(await readFile(join(dir, name), 'utf8')) });
    } catch (error) {
      onSkip(name, (error as Error).message);
    }
  }
  return found.sort((a, b) => b.manifest.takenAt.localeCompare(a.manifest.takenAt));
}

/** Null when the database file is whole (its SHA-256 is the manifest's), else why not. */
export async function verifyReadCheckpoint(
  dir: string,
  manifest: ReadCheckpointManifest,
): Promise<string | null> {
  let hash: string;
  try {
    hash = await sha256OfFile(join(dir, manifest.file));
  } catch (error) {
    return `cannot read ${manifest.file}: ${(error as Error).message}`;
  }
  return hash === manifest.sha256
    ? null
    : `${manifest.file} does not match the SHA-256 in its manifest`;
}

/** The projections a rebuild may resume: same name and version as the manifest's. */
export function resumePoints(
  manifest: ReadCheckpointManifest,
  projections: readonly { readonly name: string; readonly version: number }[],
): Map<string, Position> {
  const current = new Map(projections.map((p) => [p.name, p.version]));
  const points = new Map<string, Position>();
  for (const p of manifest.projections)
    if (current.get(p.name) === p.version) points.set(p.name, parsePosition(p.position));
  return points;
}

function parseManifest(text: string): ReadCheckpointManifest {
  const m = JSON.parse(text) as Partial<ReadCheckpointManifest>;
  const fileOk =
    typeof m.file === 'string' && m.file.startsWith(CHECKPOINT_PREFIX) && !m.file.includes('/');
  if (
    m.format !== READ_CHECKPOINT_FORMAT ||
    !fileOk ||
    typeof m.position !== 'string' ||
    typeof m.takenAt !== 'string' ||
    typeof m.sha256 !== 'string' ||
    !Array.isArray(m.projections)
  )
    throw new Error('not a read-model checkpoint manifest');
  parsePosition(m.position);
  for (const p of m.projections as Partial<CheckpointedProjection>[]) {
    if (
      typeof p.position !== 'string' ||
      typeof p.name !== 'string' ||
      typeof p.version !== 'number'
    )
      throw new Error('a projection without name, version or position');
    parsePosition(p.position);
  }
  return m as ReadCheckpointManifest;
}
