import type { ESLint } from 'eslint';

export declare const FEATURE_INTERNALS: readonly string[];
export declare function createTollgatePlugin(root: string): ESLint.Plugin;
