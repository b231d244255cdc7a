// Whole servers start per suite: on a loaded 2-core machine jest's 5 s default is too tight, and
// beside the browser tier's chromium an in-process app has taken 40 s to start (7 s alone). A
// project's `testTimeout` is not read by jest-circus (only the run-wide one is), hence this file.
// No e2e test asserts on time: the bound only catches hangs.
jest.setTimeout(60_000);
