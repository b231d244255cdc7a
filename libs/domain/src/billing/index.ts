export * from './billing.decider';
export * from './billing.events';
