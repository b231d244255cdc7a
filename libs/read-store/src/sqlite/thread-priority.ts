/**
 * Source for a worker thread (the SQLite read workers are eval'd CommonJS, see read-pool.ts): lowers
 * the CPU priority of the thread that runs it to `niceness` (Linux: setpriority on the thread id;
 * raising niceness needs no privilege). Elsewhere, or if it fails, the thread keeps its priority.
 *
 * Why: the relay's event loop and these threads share the process's CPUs. Niced, a worker gets a
 * smaller share of a busy core than the loop (the scheduler's weights), and still some under load.
 * It can still take the core for a moment when woken: on Linux's EEVDF scheduler no nice value
 * prevents that (docs/performance-journal.md, "The relay's tail at concurrency 1, seen from the
 * scheduler").
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
