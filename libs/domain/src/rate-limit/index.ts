export * from './allowance.decider';
