export * from './anthropic';
export * from './chat-adaptor';
export * from './framers';
export * from './framing';
export * from './ingress-codec';
export * from './openai-chunks';
export * from './openai-wire-adaptor';
export * from './registry';
