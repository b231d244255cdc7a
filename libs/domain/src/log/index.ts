export * from './log.events';
export * from './log-import';
