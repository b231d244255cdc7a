export * from './anthropic-adaptor';
export * from './anthropic-errors';
export * from './anthropic-ingress';
export * from './anthropic-request';
export * from './anthropic-response';
export * from './anthropic-stream';
export * from './anthropic-settings';
