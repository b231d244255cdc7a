export * from './event-store.port';
export { eventTimeMs } from './event-time';
export { createEventStore, type EventStoreConfig } from './create-event-store';
export {
  SqliteEventStore,
  type SqliteEventStoreOptions,
  type SqliteEventStoreStats,
} from './sqlite/sqlite-event-store';
export {
  openStoredEventDecoder,
  StoredEventDecoder,
  type StoredColumns,
} from './sqlite/sqlite-stored-events';
export type { PayloadTexts } from './sqlite/sqlite-payload-codec';
export { DuplicateEventIdError } from './shared/duplicate-event-id-error';
// EventStoreDB's adapter is not re-exported: `createEventStore` loads it when configured, so a
// process on the embedded store never loads its client (import `@tollgate/event-store/esdb/…`).
export { matchesFilter } from './shared/event-filter';
export { chunkBySize, eventBytes, type ChunkLimits } from './shared/chunk-by-size';
export { DEFAULT_MAX_BATCH_SIZE } from './shared/subscription-pump';
export { WRITER_THREAD_NAME } from './sqlite/sqlite-writer';
