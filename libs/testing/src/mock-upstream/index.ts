export * from './mock-upstream';
export * from './multipart';
