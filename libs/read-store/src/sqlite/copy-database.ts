import { Worker } from 'node:worker_threads';
import { lowerThreadPrioritySource } from './thread-priority';

/** A copy gets a smaller share of a busy core than the relay, like the read workers (read-pool.ts). */
const COPY_NICENESS = 10;

/*
 * Eval'd CommonJS for the same reason as the read workers' source (read-pool.ts). `VACUUM INTO` on a
 * read-only connection of its own writes one consistent snapshot: a single WAL read transaction, so
 * the writer is never held up and never seen half-way (what was committed when it began, nothing
 * else).
 */
const COPY_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
${lowerThreadPrioritySource(COPY_NICENESS)}
const Database = require(workerData.driver);
let db;
try {
  db = new Database(workerData.path, { readonly: true, fileMustExist: true });
  db.prepare('VACUUM INTO ?').run(workerData.destination);
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ error: String((error && error.message) || error) });
} finally {
  if (db) db.close();
}
`;

/** A copy under way: `done` settles when it ends; `cancel` stops it (`done` then rejects). */
export interface DatabaseCopy {
  readonly done: Promise<void>;
  cancel(): Promise<void>;
}

/**
 * Copies the SQLite database at `path` into `destination` (which must not exist) on a worker thread,
 * as it stood at one commit, while other connections keep writing.
 */
export function copyDatabase(path: string, destination: string): DatabaseCopy {
  const worker = new Worker(COPY_SOURCE, {
    eval: true,
    workerData: { path, destination, driver: require.resolve('better-sqlite3') },
  });
  const done = new Promise<void>((resolve, reject) => {
    let answered = false;
    worker.once('message', (message: { ok?: true; error?: string }) => {
      answered = true;
      if (message.ok) resolve();
      else reject(new Error(`Copying ${path}: ${message.error}`));
    });
    worker.once('error', (error) => {
      answered = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!answered) reject(new Error(`Copying ${path}: stopped (worker exit code ${code})`));
    });
  });
  return { done, cancel: () => worker.terminate().then(() => undefined) };
}
