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

export interface OpenStoresOptions {
  /** The embedded event store lost its writer thread: it refuses every append from now on. */
  readonly onWriterLost?: (error: Error) => void;
  /**
   * How this process holds DATA_DIR (default exclusive). `held-by-parent`: the projector child of
   * a gateway, which holds it for both; the child reads the log its parent appends to.
   */
  readonly lockMode?: DataDirLockMode | 'held-by-parent';
  /** Runs with DATA_DIR held, before the read store opens (the rebuild restores a checkpoint here). */
  readonly beforeReadStore?: (eventStore: EventStore) => Promise<void>;
  /**
   * Embedded event store: a serving gateway `send`s a signal after each commit, a projector
   * `watch`es for it (docs/operations.md, "The projector child").
   */
  readonly commitSignal?: 'send' | 'watch';
  /**
   * A serving gateway or a projector, not a CLI: the embedded read store keeps a small page cache
   * (a rebuild's or an import's index builds keep SQLite's, which they sort in) and its statement
   * journals in memory.
   */
  readonly serving?: boolean;
}

/**
 * Opens both ports' adapters, chosen from the configuration, before Nest starts: an engine that
 * does not answer fails here fast with one clear line ("EventStoreDB unreachable at …").
 */
export async function openStores(
  config: AppConfig,
  {
    onWriterLost,
    lockMode = 'exclusive',
    beforeReadStore,
    commitSignal,
    serving = false,
  }: OpenStoresOptions = {},
): Promise<Stores> {
  const embedded = !config.eventStoreUrl || !config.readStoreUrl;
  const lock =
    embedded && lockMode !== 'held-by-parent'
      ? DataDirLock.acquire(config.dataDir, lockMode)
      : null;
  let eventStore: EventStore | undefined;
  try {
    eventStore = await createEventStore({
      eventStoreUrl: config.eventStoreUrl,
      dataDir: config.dataDir,
      onWriterLost,
      // The child only reads the log: no writer thread unless something appends.
      ...(lockMode === 'held-by-parent' ? { lazyWriter: true } : {}),
      ...(commitSignal ? { commitSignal } : {}),
    });
    await beforeReadStore?.(eventStore);
    const readStore = await createReadStore({
      readStoreUrl: config.readStoreUrl,
      dataDir: config.dataDir,
      allowStandalone: config.readStoreAllowStandalone,
      serving,
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
