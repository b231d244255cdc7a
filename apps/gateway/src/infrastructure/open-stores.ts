import { createEventStore, type EventStore } from '@tollgate/event-store';
import { createReadStore, type ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';

export interface Stores {
  readonly eventStore: EventStore;
  readonly readStore: ReadStore;
}

/**
 * Opens both ports' adapters, chosen from the configuration, before Nest starts: an engine that
 * does not answer fails here fast with one clear line ("EventStoreDB unreachable at …").
 */
export async function openStores(config: AppConfig): Promise<Stores> {
  const eventStore = await createEventStore({
    eventStoreUrl: config.eventStoreUrl,
    dataDir: config.dataDir,
  });
  try {
    const readStore = await createReadStore({
      readStoreUrl: config.readStoreUrl,
      dataDir: config.dataDir,
    });
    return { eventStore, readStore };
  } catch (error) {
    await eventStore.close();
    throw error;
  }
}
