// One jest run, three projects: unit (libs + apps, beside the code), e2e (whole app over HTTP),
// browser (playwright-core + Debian chromium against the built app).
const moduleNameMapper = {
  '^@tollgate/(domain|contracts|event-store|read-store|relay|testing)$': '<rootDir>/libs/$1/src',
  '^@tollgate/(domain|contracts|event-store|read-store|relay|testing)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
};
const base = { testEnvironment: 'node', moduleNameMapper, transform, rootDir: __dirname };
module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/tools/**/*.spec.ts',
      ],
    },
    // Whole servers start per suite: on a loaded 2-core machine jest's 5 s default is too tight.
    {
      ...base,
      displayName: 'e2e',
      testTimeout: 30_000,
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
    },
    { ...base, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser.ts'] },
  ],
};
