import { copyFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  listReadCheckpoints,
  verifyReadCheckpoint,
  type ReadCheckpointManifest,
} from './read-checkpoint-manifest';

/**
 * Copies the newest checkpoint in `dir` whose database matches its manifest over the read-model
 * database at `target`, which no process may have open (the rebuild holds DATA_DIR alone). A
 * checkpoint that does not match, or that `refuse` turns down, is reported through `onSkip` and the
 * next older one is tried.
 * Null when none is usable (then nothing was touched).
 */
export async function restoreNewestReadCheckpoint(
  dir: string,
  target: string,
  onSkip: (name: string, why: string) => void,
  /** Why a checkpoint is unusable for the caller (null: usable), checked before its file's hash. */
  refuse: (manifest: ReadCheckpointManifest) => string | null = () => null,
): Promise<ReadCheckpointManifest | null> {
  for (const { name, manifest } of await listReadCheckpoints(dir, onSkip)) {
    const why = refuse(manifest) ?? (await verifyReadCheckpoint(dir, manifest));
    if (why) {
      onSkip(name, why);
      continue;
    }
    await replaceDatabase(join(dir, manifest.file), target);
    return manifest;
  }
  return null;
}

async function replaceDatabase(source: string, target: string): Promise<void> {
  const temp = `${target}.restoring`;
  await copyFile(source, temp);
  // The old write-ahead log belongs to the old file: left beside the new one, SQLite would replay
  // it into it.
  await rm(`${target}-wal`, { force: true });
  await rm(`${target}-shm`, { force: true });
  await rename(temp, target);
}
