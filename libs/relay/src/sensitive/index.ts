export * from './sensitive-matcher';
export * from './prompt-text';
export * from './output-guard';
