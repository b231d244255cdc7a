import { createEventStore, type EventStore } from '@tollgate/event-store';
import { createReadStore, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { DataDirLock, type DataDirLockMode } from './data-dir-lock';

export interface Stores {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
  /** Held while an embedded store lives in DATA_DIR; released by close(). */
  readonly lock: DataDirLock | null;
  /** Closes both stores, then releases the DATA_DIR lock. */
  close(): Promise<void>;
}

/**
 * How a gateway holds DATA_DIR: shared among SCALE_OUT=on gateways, else alone. The CLIs (import,
 * rebuild, option:set, ledger:verify) keep the default, exclusive, whatever SCALE_OUT says.
 */
export const gatewayLockMode = (config: Pick<AppConfig, 'scaleOut'>): DataDirLockMode =>
  config.scaleOut ? 'shared' : 'exclusive';

/**
 * Opens both ports' adapters, chosen from the configuration, before Nest starts: an engine that
 * does not answer fails here fast with one clear line ("EventStoreDB unreachable at …").
 */
export async function openStores(
  config: AppConfig,
  /** The embedded event store lost its writer thread: it refuses every append from now on. */
  onWriterLost?: (error: Error) => void,
  lockMode: DataDirLockMode = 'exclusive',
  /** Runs with DATA_DIR held, before the read store opens (the rebuild restores a checkpoint here). */
  beforeReadStore?: (eventStore: EventStore) => Promise<void>,
): Promise<Stores> {
  const embedded = !config.eventStoreUrl || !config.readStoreUrl;
  const lock = embedded ? DataDirLock.acquire(config.dataDir, lockMode) : null;
  let eventStore: EventStore | undefined;
  try {
    eventStore = await createEventStore({
      eventStoreUrl: config.eventStoreUrl,
      dataDir: config.dataDir,
      onWriterLost,
    });
    await beforeReadStore?.(eventStore);
    const readStore = await createReadStore({
      readStoreUrl: config.readStoreUrl,
      dataDir: config.dataDir,
      allowStandalone: config.readStoreAllowStandalone,
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
