export * from './openai/openai-wire';
export * from './openai/request-body';
export * from './openai/usage-reader';
export * from './tokens/token-estimate';
export * from './errors/relay-error';
export * from './routing/channel-selector';
export * from './routing/failure-policy';
export * from './limits/rate-limits';
