export * from './given-when-then';
export * from './mock-upstream';
export * from './mock-task-upstream';
export * from './usage-receipt';
export * from './append-events';
export * from './recorded-event';
