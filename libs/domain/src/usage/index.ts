export * from './usage.events';
export * from './request-failed.events';
export * from './usage-summary.events';
