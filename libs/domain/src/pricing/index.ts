export * from './pricing';
export * from './output-ceiling';
