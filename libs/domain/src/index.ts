export * from './shared';
export * from './user';
export * from './billing';
export * from './options';
export * from './guard';
export * from './sequence';
export * from './usage';
export * from './channel';
