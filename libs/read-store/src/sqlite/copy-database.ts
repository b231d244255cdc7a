import { Worker } from 'node:worker_threads';
import { lowerThreadPrioritySource } from './thread-priority';

/** A copy takes the CPU the relay leaves idle, like the read workers (read-pool.ts). */
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

/**
 * Copies the SQLite database at `path` into `destination` (which must not exist) on a worker thread,
 * as it stood at one commit, while other connections keep writing.
 */
export function copyDatabase(path: string, destination: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const worker = new Worker(COPY_SOURCE, {
      eval: true,
      workerData: { path, destination, driver: require.resolve('better-sqlite3') },
    });
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
      if (!answered) reject(new Error(`Copying ${path}: the worker exited with code ${code}`));
    });
  });
}
