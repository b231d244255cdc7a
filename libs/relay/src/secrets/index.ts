export * from './secret-forms';
export { SECRET_MASK } from './secret-search';
export * from './secret-scrubber';
export * from './secret-stream';
export * from './channel-secrets';
