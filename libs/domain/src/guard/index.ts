export * from './unique-claim.decider';
