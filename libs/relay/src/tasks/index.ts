export * from './mj-wire';
export * from './suno-wire';
export * from './task-snapshots';
