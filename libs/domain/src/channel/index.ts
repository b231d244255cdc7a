export * from './channel.commands';
export * from './channel.decider';
export * from './channel.events';
export * from './channel.rules';
export * from './channel.state';
export * from './channel-failure';
export * from './param-override';
