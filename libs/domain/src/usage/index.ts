export * from './usage.events';
export * from './request-failed.events';
