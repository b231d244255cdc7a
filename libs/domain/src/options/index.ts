export * from './option-catalogue';
export * from './option-value';
export * from './options.decider';
export * from './options.events';
