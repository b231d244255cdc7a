// Unit suites run in the same jest run as the e2e servers and chromium: on a loaded 2-core machine
// a worker can be starved for seconds, and jest's 5 s default then fails a correct test. No unit
// test asserts on time (speed lives in test/bench), so the bound only catches hangs.
jest.setTimeout(15_000);
