export * from './decider';
export * from './domain-error';
export * from './event-metadata';
export * from './import-source';
export * from './with-fields';
