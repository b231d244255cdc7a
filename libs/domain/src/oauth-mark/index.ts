export * from './oauth-mark.decider';
