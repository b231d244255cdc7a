import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { StreamCommands } from '../../apps/gateway/src/infrastructure/stream-commands';
import { readStoredEvents } from './e2e-helpers';

/**
 * Runs `write` against the events.sqlite of a killed gateway, the way the gateway's own command
 * handlers would append: what a process killed right after that append leaves on disk.
 */
export async function appendWhileStopped<T>(
  dataDir: string,
  write: (commands: StreamCommands) => Promise<T>,
): Promise<T> {
  const store = SqliteEventStore.open(join(dataDir, 'events.sqlite'));
  try {
    return await write(new StreamCommands(store));
  } finally {
    await store.close();
  }
}

/** The stored QuotaGranted credits for `reason`, with who appended them and why. */
export function storedCredits(dataDir: string, reason: string) {
  return readStoredEvents(dataDir, { type: 'QuotaGranted' })
    .filter((e) => e.data['reason'] === reason)
    .map((e) => ({
      streamId: e.streamId,
      data: e.data,
      actor: e.metadata['actor'],
      causationId: e.metadata['causationId'],
      correlationId: e.metadata['correlationId'],
    }));
}
