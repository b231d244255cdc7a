export * from './envelope';
export * from './roles';
export * from './user.dto';
export * from './status.dto';
export * from './socket-events';
export * from './channel-types';
export * from './channel-models';
export * from './channel.dto';
