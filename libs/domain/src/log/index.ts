export * from './log.events';
