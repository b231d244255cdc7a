export * from './option-catalogue';
export * from './legacy-option-keys';
export * from './option-value';
export * from './options.decider';
export * from './options.events';
