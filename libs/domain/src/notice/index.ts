export * from './notice.decider';
export * from './notice.events';
