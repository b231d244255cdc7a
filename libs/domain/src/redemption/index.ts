export * from './redemption.events';
export * from './redemption.decider';
