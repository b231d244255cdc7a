// One jest run, three projects: unit (libs + apps, beside the code), e2e (whole app over HTTP),
// browser (playwright-core + Debian chromium against the built app).
const moduleNameMapper = {
  '^@tollgate/(domain|contracts|event-store|read-store|relay|testing)$': '<rootDir>/libs/$1/src',
  '^@tollgate/(domain|contracts|event-store|read-store|relay|testing)/(.*)$':
    '<rootDir>/libs/$1/src/$2',
};
const transform = {
  '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  // jose 6 ships ES modules only: Node 20 requires them natively, jest's module system does not.
  '^.+/node_modules/jose/.+\\.js$': [
    'ts-jest',
    { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, diagnostics: false },
  ],
};
const base = {
  testEnvironment: 'node',
  moduleNameMapper,
  transform,
  transformIgnorePatterns: ['/node_modules/(?!jose/)'],
  rootDir: __dirname,
};
module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      setupFilesAfterEnv: ['<rootDir>/test/support/unit-timeout.ts'],
      testMatch: [
        '<rootDir>/libs/**/*.spec.ts',
        '<rootDir>/apps/**/*.spec.ts',
        '<rootDir>/tools/**/*.spec.ts',
      ],
    },
    {
      ...base,
      displayName: 'e2e',
      // 60 s a test or hook unless the file says otherwise (see the file for why not testTimeout).
      setupFilesAfterEnv: ['<rootDir>/test/support/e2e-timeout.ts'],
      testMatch: ['<rootDir>/test/e2e/**/*.e2e.ts'],
    },
    { ...base, displayName: 'browser', testMatch: ['<rootDir>/test/browser/**/*.browser.ts'] },
  ],
};
