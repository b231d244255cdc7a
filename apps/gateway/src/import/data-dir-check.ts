import { createHash } from 'node:crypto';
import { isRoot } from '@tollgate/contracts';
import { fold, userDecider, type UserEvent } from '@tollgate/domain';
import type { EventStore, Position } from '@tollgate/event-store';
import { ImportRefused, type SourceDatabase } from './source-database';

/** Identifies the source across runs: project and its lowest user row (id, username, aff code). */
export async function fingerprintOf(source: SourceDatabase): Promise<string> {
  const row = (await source.fingerprintRow()) ?? {};
  return createHash('sha256')
    .update(JSON.stringify([source.project, row['id'], row['username'], row['aff_code']]))
    .digest('hex')
    .slice(0, 32);
}

/** What a gateway started once on an empty DATA_DIR writes: the default root and its balance. */
const BOOTSTRAP_STREAMS = new Set(['seq-user', 'user-1', 'billing-1', 'username-root']);

/**
 * DATA_DIR may hold nothing, the untouched default root (a gateway started once: the import
 * replaces it), or an earlier import of this same source (then this run resumes). Anything else,
 * a root whose default password was changed included, is refused (ImportRefused: exit code 2).
 */
export async function assertOnlyThisSource(store: EventStore, fingerprint: string): Promise<void> {
  let from: Position | 'start' = 'start';
  for (;;) {
    const events = await store.readAll({ fromPosition: from, maxCount: 1000 });
    for (const event of events) {
      const imported = event.metadata['import'] as { fingerprint?: string } | undefined;
      if (imported) {
        if (imported.fingerprint === fingerprint) return;
        throw new ImportRefused(
          'DATA_DIR holds an import of another source: import into an empty DATA_DIR',
        );
      }
      const stream = event.streamId;
      if (
        BOOTSTRAP_STREAMS.has(stream) ||
        stream.startsWith('snapshot-') ||
        stream.startsWith('affcode-')
      )
        continue;
      throw new ImportRefused(
        `DATA_DIR holds data that is not from this source (stream ${stream}): import into an empty DATA_DIR`,
      );
    }
    if (events.length < 1000) break;
    from = events[events.length - 1]!.position;
  }
  await assertRootUntouched(store);
}

/** The bootstrap root may be replaced only while nobody has used it (its default password). */
async function assertRootUntouched(store: EventStore): Promise<void> {
  const events = await store.readStream('user-1');
  if (events.length === 0) return;
  const root = fold(
    userDecider,
    events.map((e) => ({ type: e.type, data: e.data }) as UserEvent),
  );
  if (root.exists && !(isRoot(root.role) && root.defaultPassword))
    throw new ImportRefused(
      "DATA_DIR's root account is in use (its default password was changed): import into an empty DATA_DIR",
    );
}
