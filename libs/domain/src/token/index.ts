export * from './token.events';
export * from './token.rules';
export * from './token.decider';
