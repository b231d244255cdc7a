export * from './read-store.port';
export { SqliteReadStore } from './sqlite/sqlite-read-store';
export { MongoReadStore } from './mongo/mongo-read-store';
export { connectMongo, type ConnectMongoOptions } from './mongo/connect-mongo';
export { createReadStore, READ_STORE_FILE, type ReadStoreConfig } from './create-read-store';
export type { Projection } from './projection/projection';
export { CHECKPOINTS, type CheckpointDoc } from './projection/checkpoint';
export {
  BatchWrites,
  SOURCE_POSITION,
  type BufferedUpdateOptions,
} from './projection/batch-writes';
export { applyEvents, ProjectionFailure } from './projection/apply-events';
export { BatchMemo } from './projection/batch-memo';
export {
  ProjectionRunner,
  type AppliedListener,
  type ProjectionRunnerOptions,
  type ProjectionProgress,
} from './projection/projection-runner';
export { ProjectionHost, type ProjectionHostOptions } from './projection/projection-host';
export {
  rebuildProjections,
  formatProgressBar,
  type RebuildOptions,
  type RebuildResult,
} from './projection/rebuild';
export {
  MongoLease,
  connectMongoLease,
  LEASES_COLLECTION,
  type LeaseCollection,
  type LeaseDoc,
} from './mongo/mongo-lease';
export {
  listReadCheckpoints,
  resumePoints,
  verifyReadCheckpoint,
  type CheckpointedProjection,
  type FoundCheckpoint,
  type ReadCheckpointManifest,
} from './checkpoints/read-checkpoint-manifest';
export {
  takeReadCheckpoint,
  pruneReadCheckpoints,
  READ_CHECKPOINTS_KEPT,
  type TakeReadCheckpointOptions,
} from './checkpoints/take-read-checkpoint';
export { restoreNewestReadCheckpoint } from './checkpoints/restore-read-checkpoint';
