export * from './mock-task-upstream';
