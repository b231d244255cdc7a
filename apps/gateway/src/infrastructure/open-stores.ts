import { createEventStore, type EventStore } from '@tollgate/event-store';
import { createReadStore, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { DataDirLock } from './data-dir-lock';

export interface Stores {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  /** Held while an embedded store lives in DATA_DIR; released by close(). */
  readonly lock: DataDirLock | null;
  /** Closes both stores, then releases the DATA_DIR lock. */
  close(): Promise<void>;
}

/**
 * Opens both ports' adapters, chosen from the configuration, before Nest starts: an engine that
 * does not answer fails here fast with one clear line ("EventStoreDB unreachable at …").
 */
export async function openStores(
  config: AppConfig,
  /** The embedded event store lost its writer thread: it refuses every append from now on. */
  onWriterLost?: (error: Error) => void,
): Promise<Stores> {
  const embedded = !config.eventStoreUrl || !config.readStoreUrl;
  const lock = embedded ? DataDirLock.acquire(config.dataDir) : null;
  let eventStore: EventStore | undefined;
  try {
    eventStore = await createEventStore({
      eventStoreUrl: config.eventStoreUrl,
      dataDir: config.dataDir,
      onWriterLost,
    });
    const readStore = await createReadStore({
      readStoreUrl: config.readStoreUrl,
      dataDir: config.dataDir,
    });
    const opened = eventStore;
    return {
      eventStore: opened,
      readStore,
      lock,
      close: async () => {
        try {
          await opened.close();
          await readStore.close();
        } finally {
          lock?.release();
        }
      },
    };
  } catch (error) {
    await eventStore?.close();
    lock?.release();
    throw error;
  }
}
