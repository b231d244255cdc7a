export * from './allowance.decider';
export * from './concurrency-slots.decider';
