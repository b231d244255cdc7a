import { SqliteEventStore, type EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  SqliteReadStore,
  type Projection,
  type ReadStore,
} from '@tollgate/read-store';

/** In-memory event store + read store with a started host: the setup every projection spec shares. */
export interface ProjectionFixture {
  events: EventStore;
  read: ReadStore;
  host: ProjectionHost;
}

export async function openProjectionHost(
  projections: ReadonlyArray<Projection>,
): Promise<ProjectionFixture> {
  const events = SqliteEventStore.open(':memory:');
  const read = new SqliteReadStore(':memory:');
  const host = new ProjectionHost(events, read, projections);
  await host.start();
  return { events, read, host };
}

/** Stops the host before closing the stores it reads and writes. */
export async function closeProjectionHost({
  events,
  read,
  host,
}: ProjectionFixture): Promise<void> {
  await host.stop();
  await events.close();
  await read.close();
}
