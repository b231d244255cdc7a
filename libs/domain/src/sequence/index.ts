export * from './sequence.decider';
