import { Logger } from '@nestjs/common';
import type { EventStore } from '@tollgate/event-store';
import type { AppConfig } from '../../config/app-config';
import { EventStoreLease } from './event-store-lease';
import type { LeasePort } from './lease.port';

/** Renewals kept per lease stream on EventStoreDB: the last one is all a contender reads. */
const LEASE_STREAM_MAX_COUNT = 10;

export interface Leases {
  readonly port: LeasePort;
  close(): Promise<void>;
}

/**
 * The lease engine of a deployment on shared engines (see electionEngine): MongoDB's `leases`
 * collection when the read store is shared, else the event store's lease streams; null when both
 * stores are embedded (file locks only, no lease traffic).
 */
export async function openLeases(
  config: Pick<AppConfig, 'eventStoreUrl' | 'readStoreUrl'>,
  eventStore: EventStore,
): Promise<Leases | null> {
  if (config.readStoreUrl) {
    const { connectMongoLease } = await import('@tollgate/read-store/mongo/mongo-lease');
    const mongo = await connectMongoLease(config.readStoreUrl);
    return { port: mongo.lease, close: () => mongo.close() };
  }
  if (config.eventStoreUrl) {
    const logger = new Logger('Election');
    const port = new EventStoreLease(eventStore, {
      maxCount: LEASE_STREAM_MAX_COUNT,
      onError: (error) => logger.warn(`lease stream not trimmed: ${error.message}`),
    });
    return { port, close: () => Promise.resolve() };
  }
  return null;
}
