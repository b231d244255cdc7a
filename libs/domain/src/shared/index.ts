export * from './decider';
export * from './domain-error';
export * from './event-metadata';
