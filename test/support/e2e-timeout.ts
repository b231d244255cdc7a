// Whole servers start per suite: on a loaded 2-core machine jest's 5 s default is too tight. A
// project's `testTimeout` is not read by jest-circus (only the run-wide one is), hence this file.
jest.setTimeout(30_000);
