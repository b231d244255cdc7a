export * from './task.events';
export * from './task.decider';
