export * from './mock-behavior';
export * from './mock-upstream';
export * from './multipart';
