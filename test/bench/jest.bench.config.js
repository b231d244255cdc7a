// `npm run bench:jest`: the jest benchmarks under test/bench, one file at a time (never part of `npm test`).
const base = require('../../jest.config.js').projects[0];

module.exports = {
  ...base,
  rootDir: require('node:path').resolve(__dirname, '../..'),
  displayName: 'bench',
  testMatch: ['<rootDir>/test/bench/**/*.bench.ts'],
  testTimeout: 240_000,
  maxWorkers: 1,
};
