export * from './read-store.port';
export { SqliteReadStore } from './sqlite/sqlite-read-store';
// MongoDB's adapter and leases are not re-exported: `createReadStore` and the lease set-up load
// them when configured, so a process on the embedded store never loads the driver
// (import `@tollgate/read-store/mongo/…`).
export { createReadStore, READ_STORE_FILE, type ReadStoreConfig } from './create-read-store';
export { pacedEventTypes, type Projection } from './projection/projection';
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
  type RebuildSource,
} from './projection/rebuild';
export {
  laneRows,
  replayLane,
  type RebuildLane,
  type StartedLane,
} from './projection/rebuild-lane';
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
