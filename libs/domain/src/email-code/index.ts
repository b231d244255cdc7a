export * from './email-code.events';
export * from './email-code.decider';
