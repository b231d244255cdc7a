/**
 * Source for a worker thread (the SQLite read workers are eval'd CommonJS, see read-pool.ts): lowers
 * the CPU priority of the thread that runs it to `niceness` (Linux: setpriority on the thread id;
 * raising niceness needs no privilege). Elsewhere, or if it fails, the thread keeps its priority.
 *
 * Why: the relay's event loop and these threads share the process's CPUs. A worker woken by a
 * postMessage (a console query) would otherwise preempt the loop mid-request; niced, it takes the
 * CPU the loop leaves idle and still gets its share under load (CFS weights).
 */
export function lowerThreadPrioritySource(niceness: number): string {
  if (!Number.isInteger(niceness) || niceness < 0 || niceness > 19) {
    throw new Error(`niceness must be an integer 0-19, got ${niceness}`);
  }
  return `
if (${niceness} > 0 && process.platform === 'linux') {
  try {
    const self = require('node:fs').readlinkSync('/proc/thread-self');
    require('node:os').setPriority(Number(self.slice(self.lastIndexOf('/') + 1)), ${niceness});
  } catch {}
}
`;
}
