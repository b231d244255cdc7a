export * from './usage.events';
