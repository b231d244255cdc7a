import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  comparePositions,
  parsePosition,
  serializePosition,
} from '@tollgate/event-store/event-store.port';
import { CHECKPOINTS, type CheckpointDoc } from '../projection/checkpoint';
import type { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { DOC_TEXT, tableName } from '../sqlite/sql-names';
import {
  CHECKPOINT_PREFIX,
  DATABASE_SUFFIX,
  listReadCheckpoints,
  MANIFEST_SUFFIX,
  READ_CHECKPOINT_FORMAT,
  sha256OfFile,
  TEMP_PREFIX,
  type CheckpointedProjection,
  type ReadCheckpointManifest,
} from './read-checkpoint-manifest';

/** Checkpoints kept: the newest, and one before it in case the newest turns out damaged. */
export const READ_CHECKPOINTS_KEPT = 2;
/** A temporary file this old belongs to a copy that was cut short (a crash), not to one under way. */
const STALE_TEMP_MS = 60 * 60_000;

export interface TakeReadCheckpointOptions {
  readonly keep?: number;
  readonly now?: () => Date;
}

/**
 * Copies the read-model database into `dir` as a checkpoint (online: the projections keep writing)
 * and keeps the newest `keep`. Each projection's position is read from the copy's own checkpoint
 * documents, which every batch commits with its writes: whatever the copy's moment, it holds each
 * read model exactly up to its recorded position. The database is written and renamed before its
 * manifest, so a crash leaves no manifest over a partial file. Null when there was nothing to keep
 * (no projection has a checkpoint yet).
 */
export async function takeReadCheckpoint(
  store: SqliteReadStore,
  dir: string,
  options: TakeReadCheckpointOptions = {},
): Promise<ReadCheckpointManifest | null> {
  await mkdir(dir, { recursive: true });
  const takenAt = (options.now ?? (() => new Date()))();
  const temp = join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}`);
  try {
    await store.backup(temp + DATABASE_SUFFIX);
    const projections = settleCopy(temp + DATABASE_SUFFIX);
    const oldest = projections.map((p) => parsePosition(p.position)).sort(comparePositions)[0];
    if (!oldest) return null;
    const stem = `${CHECKPOINT_PREFIX}${takenAt.toISOString().replace(/[-:.]/g, '')}-${oldest.commit}`;
    const manifest: ReadCheckpointManifest = {
      format: READ_CHECKPOINT_FORMAT,
      file: stem + DATABASE_SUFFIX,
      position: serializePosition(oldest),
      projections,
      takenAt: takenAt.toISOString(),
      bytes: (await stat(temp + DATABASE_SUFFIX)).size,
      sha256: await sha256OfFile(temp + DATABASE_SUFFIX),
    };
    await rename(temp + DATABASE_SUFFIX, join(dir, manifest.file));
    await writeFile(temp + MANIFEST_SUFFIX, JSON.stringify(manifest, null, 2) + '\n');
    await rename(temp + MANIFEST_SUFFIX, join(dir, stem + MANIFEST_SUFFIX));
    await pruneReadCheckpoints(dir, options.keep ?? READ_CHECKPOINTS_KEPT);
    return manifest;
  } finally {
    await rm(temp + DATABASE_SUFFIX, { force: true });
    await rm(temp + MANIFEST_SUFFIX, { force: true });
  }
}

/**
 * Makes the copy one self-contained file (rollback journal instead of WAL, so nothing rides in a
 * side file) and reads its projections' checkpoints. Names starting with `$` are not projections.
 */
function settleCopy(path: string): CheckpointedProjection[] {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = DELETE');
    const exists = db
      .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(CHECKPOINTS);
    if (!exists) return [];
    // The id lives in its own column, not in the JSON document.
    const rows = db
      .prepare(`SELECT id, ${DOC_TEXT} AS doc FROM ${tableName(CHECKPOINTS)}`)
      .all() as {
      id: string;
      doc: string;
    }[];
    return rows
      .map((row) => ({ ...(JSON.parse(row.doc) as CheckpointDoc), _id: row.id }))
      .filter(
        (doc) =>
          !doc._id.startsWith('$') &&
          doc.position !== undefined &&
          doc.version !== undefined &&
          doc.dirty === undefined,
      )
      .map((doc) => ({ name: doc._id, version: doc.version!, position: doc.position! }))
      .sort((a, b) => a.name.localeCompare(b.name));
  } finally {
    db.close();
  }
}

/** Keeps the newest `keep` checkpoints; removes older ones, orphan files and stale temporaries. */
export async function pruneReadCheckpoints(dir: string, keep: number): Promise<void> {
  const found = await listReadCheckpoints(dir);
  const kept = new Set(found.slice(0, keep).flatMap((c) => [c.name, c.manifest.file]));
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    if (name.startsWith(TEMP_PREFIX)) {
      const { mtimeMs } = await stat(path).catch(() => ({ mtimeMs: Date.now() }));
      if (Date.now() - mtimeMs > STALE_TEMP_MS) await rm(path, { force: true });
    } else if (name.startsWith(CHECKPOINT_PREFIX) && !kept.has(name)) {
      await rm(path, { force: true });
    }
  }
}
