export * from './mock-behavior';
export * from './mock-upstream';
export * from './multipart';
export { MOCK_JSON_REST, MOCK_THOUGHT } from './wires/anthropic-messages';
