// @ts-check
// ESLint flat config for the whole repository (backend, libs, tests, console).
// Type-checked rules everywhere TypeScript lives, plus the import boundaries between the layers
// (docs/architecture.md#layers):
//   - libs/domain: no Nest, no drivers, no I/O modules, no other @tollgate lib but contracts,
//     no process.env, no clock, no randomness (time and ids come in as arguments);
//   - libs/contracts: relative imports only (the console bundles it);
//   - frontend/src: no backend lib but @tollgate/contracts; a feature never reaches into another
//     feature's components/hooks; socket.io-client only behind src/lib;
//   - everywhere: no @nestjs/cqrs EventBus/AggregateRoot/event handlers; no relative import that
//     leaves its package (apps/<x>, libs/<x>, frontend), so the rules above cannot be bypassed.
import { existsSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';
import tollgatePlugin from './tools/eslint-plugin/index.cjs';

const { createTollgatePlugin } = tollgatePlugin;
const root = import.meta.dirname;

const TS = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts'];
const TESTS = [
  '**/*.spec.ts',
  '**/*.spec.tsx',
  '**/*.test.ts',
  '**/*.test.tsx',
  'test/**/*.ts',
  'frontend/src/test/**/*.{ts,tsx}',
];
// Tooling configs are linted without type information, so they need not be in any tsconfig.
const UNTYPED_TS = ['*.config.{ts,mts,cts}', 'frontend/*.{ts,mts,cts}'];
// The console's tsconfig is written separately; without it, its files are linted untyped
// instead of failing with "not found by the project service".
const hasFrontendTsconfig = existsSync(path.join(root, 'frontend', 'tsconfig.json'));

// ---------------------------------------------------------------------------------------------
// Import restrictions. In flat config the last matching block replaces a rule's options, so each
// area gets one complete list composed from these sets.
// ---------------------------------------------------------------------------------------------

/** @typedef {{ name: string, message: string, importNames?: string[], allowTypeImports?: boolean }} PathRule */
/** @typedef {{ group?: string[], regex?: string, caseSensitive?: boolean, message: string, allowTypeImports?: boolean }} PatternRule */
/** @typedef {{ paths?: PathRule[], patterns?: PatternRule[] }} ImportSet */

/** @param {...ImportSet} sets */
const restrictImports = (...sets) => [
  'error',
  {
    paths: sets.flatMap((s) => s.paths ?? []),
    patterns: sets.flatMap((s) => s.patterns ?? []),
  },
];

/** @type {ImportSet} Durable reactions come from store subscriptions, not the in-memory bus. */
const NO_CQRS_EVENT_BUS = {
  paths: [
    {
      name: '@nestjs/cqrs',
      importNames: [
        'EventBus',
        'AggregateRoot',
        'EventsHandler',
        'IEventHandler',
        'Saga',
        'EventPublisher',
      ],
      message:
        'Use CommandBus/QueryBus only: events come back from the store as plain JSON and the in-memory bus is fire-and-forget; react to events through a store subscription (docs/architecture.md#layers).',
    },
  ],
};

/** @type {ImportSet} */
const NO_FRONTEND_FROM_BACKEND = {
  patterns: [
    {
      regex: '(^|/)frontend/',
      message:
        'The server does not import the console; share wire types through @tollgate/contracts.',
    },
  ],
};

/** @type {ImportSet} */
const NO_APPS_FROM_LIBS = {
  patterns: [{ regex: '(^|/)apps/', message: 'Libraries do not import applications.' }],
};

const IO_BUILTINS = builtinModules.filter((m) => !m.startsWith('_'));

/** @param {string[]} allowedLibs @returns {ImportSet} */
const domainImports = (allowedLibs) => ({
  paths: [
    ...[
      'better-sqlite3',
      'mongodb',
      'undici',
      'socket.io',
      'socket.io-client',
      'fastify',
      'reflect-metadata',
      'class-validator',
      'class-transformer',
    ].map((name) => ({
      name,
      message:
        'libs/domain is pure (state, command, time and ids in; events out): no framework, driver or network code (docs/architecture.md#layers).',
    })),
    ...IO_BUILTINS.map((name) => ({
      name,
      message: 'libs/domain does no I/O: Node built-ins belong to adapters and handlers.',
    })),
  ],
  patterns: [
    {
      group: ['@nestjs/*', '@eventstore/*', '@fastify/*'],
      message:
        'libs/domain is pure (state, command, time and ids in; events out): no Nest, no store client (docs/architecture.md#layers).',
    },
    {
      regex: '^node:',
      caseSensitive: true,
      message: 'libs/domain does no I/O: Node built-ins belong to adapters and handlers.',
    },
    {
      regex: `^@tollgate/(?!(${allowedLibs.join('|')})(/|$))`,
      caseSensitive: true,
      message: `libs/domain may import only ${allowedLibs.map((l) => '@tollgate/' + l).join(', ')}.`,
    },
  ],
});

/** @type {ImportSet} */
const CONTRACTS_IMPORTS = {
  patterns: [
    {
      regex: '^(?!\\.{1,2}/)',
      message:
        'libs/contracts is bundled by the console: relative imports only (no Nest, no drivers, no other lib).',
    },
  ],
};

/** @type {ImportSet} */
const FRONTEND_IMPORTS = {
  paths: ['better-sqlite3', 'mongodb', 'undici', 'socket.io', 'fastify', 'reflect-metadata'].map(
    (name) => ({
      name,
      message: 'Server-only package: the console talks to the gateway over HTTP.',
    }),
  ),
  patterns: [
    {
      regex: '^@tollgate/(?!contracts(/|$))',
      caseSensitive: true,
      message: 'The console imports only @tollgate/contracts from the backend.',
    },
    {
      group: ['@nestjs/*', '@eventstore/*', '@fastify/*'],
      message: 'Server-only package: the console talks to the gateway over HTTP.',
    },
  ],
};

/** @type {ImportSet} The console's wrappers (http client, socket, query client) live only in src/lib. */
const FRONTEND_SOCKET_ONLY_IN_LIB = {
  paths: [
    {
      name: 'socket.io-client',
      allowTypeImports: true,
      message: 'Use the socket wrapper in src/lib (it only invalidates queries).',
    },
  ],
};

// Local rules (tools/eslint-plugin, tested there): relative imports stay in their package; a
// console feature does not reach into another feature's internals.
const tollgate = createTollgatePlugin(root);

// ---------------------------------------------------------------------------------------------
// Globals for the few plain .mjs scripts (TypeScript files rely on tsc instead of no-undef).
// ---------------------------------------------------------------------------------------------
const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'AbortController',
    'AbortSignal',
    'fetch',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'clearImmediate',
    'queueMicrotask',
    'structuredClone',
    'performance',
    'TextEncoder',
    'TextDecoder',
  ].map((g) => [g, 'readonly']),
);

export default defineConfig(
  globalIgnores([
    '**/node_modules/',
    '**/dist/',
    '**/coverage/',
    'test-artifacts/',
    'data/',
    '.tmp/',
    'frontend/public/',
    // CommonJS configs (jest.config.js, postcss.config.cjs): nothing to enforce there.
    '**/*.js',
    '**/*.cjs',
  ]),

  {
    files: ['**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
    rules: {
      'no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },

  {
    files: TS,
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    plugins: { tollgate },
    languageOptions: {
      parserOptions: {
        // The nearest tsconfig.json of each file: ./tsconfig.json for apps, libs and test,
        // ./frontend/tsconfig.json for the console.
        projectService: true,
        tsconfigRootDir: root,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      // Nest interfaces (ICommandHandler.execute, lifecycle hooks) are async by contract.
      '@typescript-eslint/require-await': 'off',
      // React event handlers may be async; promises passed as arguments are still checked.
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { attributes: false } },
      ],
      // Do not enable consistent-type-imports: Nest DI needs runtime imports of injected classes
      // (emitDecoratorMetadata).
      '@typescript-eslint/no-restricted-imports': restrictImports(NO_CQRS_EVENT_BUS),
    },
  },

  // Tooling configs (vite.config.ts, …): plain syntax rules, no type information needed.
  {
    files: hasFrontendTsconfig ? UNTYPED_TS : [...UNTYPED_TS, 'frontend/**/*.{ts,tsx}'],
    extends: [tseslint.configs.disableTypeChecked],
  },

  // --- backend areas ---
  {
    files: ['apps/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_CQRS_EVENT_BUS,
        NO_FRONTEND_FROM_BACKEND,
      ),
      'tollgate/no-relative-cross-package': 'error',
    },
  },
  {
    files: ['libs/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_CQRS_EVENT_BUS,
        NO_FRONTEND_FROM_BACKEND,
        NO_APPS_FROM_LIBS,
      ),
      'tollgate/no-relative-cross-package': 'error',
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_FRONTEND_FROM_BACKEND,
        NO_APPS_FROM_LIBS,
        domainImports(['contracts']),
      ),
      'no-restricted-globals': [
        'error',
        ...['process', 'fetch', 'setTimeout', 'setInterval', 'setImmediate', 'performance'].map(
          (name) => ({
            name,
            message: 'libs/domain has no environment, clock or I/O: pass it in.',
          }),
        ),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Configuration comes in as arguments.' },
        {
          object: 'Date',
          property: 'now',
          message: 'Time comes in: use the `now` passed to decide().',
        },
        {
          object: 'Math',
          property: 'random',
          message: 'Ids come in: use the `ids` passed to decide().',
        },
        {
          object: 'crypto',
          property: 'randomUUID',
          message: 'Ids come in: use the `ids` passed to decide().',
        },
        { object: 'globalThis', property: 'process', message: 'libs/domain has no environment.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'Time comes in: use the `now` passed to decide(), or new Date(value).',
        },
        {
          selector: "CallExpression[callee.name='Date']",
          message: 'Date() reads the clock: use the `now` passed to decide().',
        },
        { selector: 'ImportExpression', message: 'libs/domain loads no module at run time.' },
      ],
    },
  },
  {
    // Domain tests use the given/when/then helpers and builders of libs/testing.
    files: ['libs/domain/**/*.spec.ts', 'libs/domain/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_FRONTEND_FROM_BACKEND,
        NO_APPS_FROM_LIBS,
        domainImports(['contracts', 'testing']),
      ),
    },
  },
  {
    // The code a relay call runs: a spread first with keys after gives each object a hidden class of
    // its own on Node 20 (~1 µs, and garbage that outlives scavenges). withFields copies without.
    files: [
      'apps/gateway/src/relay/**/*.ts',
      'apps/gateway/src/billing/**/*.ts',
      'apps/gateway/src/observability/**/*.ts',
      'libs/relay/src/**/*.ts',
    ],
    ignores: ['**/*.spec.ts', '**/*.e2e.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ObjectExpression[properties.length>1] > SpreadElement:first-child',
          message:
            'A spread first with keys after makes a new hidden class per object on Node 20: use withFields(base, { … }) from @tollgate/domain, or put the spread last when no key overlaps (docs/performance-journal.md, "Spread first, keys after").',
        },
      ],
    },
  },
  {
    // libs/relay is the pure half of the relay (wire shapes, SSE parsing, selection, limits): no Nest,
    // no store, no network client; clocks and randomness come in as arguments.
    files: ['libs/relay/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_CQRS_EVENT_BUS,
        NO_FRONTEND_FROM_BACKEND,
        NO_APPS_FROM_LIBS,
        {
          paths: ['better-sqlite3', 'mongodb', 'undici', 'socket.io', 'fastify'].map((name) => ({
            name,
            message: 'libs/relay does no I/O: the gateway owns sockets and stores.',
          })),
          patterns: [
            {
              group: ['@nestjs/*', '@eventstore/*', '@fastify/*'],
              message: 'libs/relay is framework-free: the gateway wires it.',
            },
            {
              regex: '^@tollgate/(?!(domain|contracts)(/|$))',
              caseSensitive: true,
              message: 'libs/relay may import only @tollgate/domain and @tollgate/contracts.',
            },
          ],
        },
      ),
    },
  },
  {
    files: ['libs/contracts/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(CONTRACTS_IMPORTS),
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        NO_CQRS_EVENT_BUS,
        NO_FRONTEND_FROM_BACKEND,
      ),
    },
  },

  // --- console ---
  {
    files: ['frontend/src/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(
        FRONTEND_IMPORTS,
        FRONTEND_SOCKET_ONLY_IN_LIB,
      ),
      'tollgate/no-relative-cross-package': 'error',
      'tollgate/no-feature-internals': 'error',
    },
  },
  {
    files: [
      'frontend/src/lib/**/*.{ts,tsx}',
      'frontend/src/test/**/*.{ts,tsx}',
      'frontend/src/**/*.test.{ts,tsx}',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': restrictImports(FRONTEND_IMPORTS),
    },
  },

  // --- test support stays out of production code ---
  // Contract suites, fakes and fixtures live under a `testing` path (libs/<lib>/src/testing/,
  // libs/testing = @tollgate/testing, libs/relay's testing-fixtures). Only tests and other test
  // support import them. A separate rule (core no-restricted-imports) so the area lists of
  // @typescript-eslint/no-restricted-imports above stay as they are.
  {
    files: TS,
    ignores: [...TESTS, '**/testing/**', 'libs/testing/**', '**/testing-fixtures.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)testing(-[\\w-]+)?(/|$)',
              message:
                'Test support (fakes, contract suites, mock upstreams, fixtures) is for tests only: production code does not import a `testing` path (see docs/architecture.md#tests).',
            },
          ],
        },
      ],
    },
  },

  // --- tests: mocks, fixtures and `expect(obj.method)` fight the unsafe-* family ---
  {
    files: TESTS,
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
);
