export * from './user.commands';
export * from './user.decider';
export * from './user.events';
export * from './user-identity';
export * from './user.rules';
export * from './user.state';
