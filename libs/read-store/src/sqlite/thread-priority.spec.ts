import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { lowerThreadPrioritySource } from './thread-priority';

/** Runs the source in a worker that reports its own niceness and the process's (main thread's). */
function nicenessInWorker(source: string): Promise<{ thread: number; main: number }> {
  const worker = new Worker(
    `${source}
const self = require('node:fs').readlinkSync('/proc/thread-self');
const os = require('node:os');
require('node:worker_threads').parentPort.postMessage({
  thread: os.getPriority(Number(self.slice(self.lastIndexOf('/') + 1))),
  main: os.getPriority(process.pid),
});`,
    { eval: true },
  );
  return new Promise((resolve, reject) => {
    worker.once('message', (m: { thread: number; main: number }) => {
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', reject);
  });
}

const linux = process.platform === 'linux' ? describe : describe.skip;

linux('lowerThreadPrioritySource', () => {
  it('lowers the priority of the worker thread that runs it, not of the main thread', async () => {
    const before = getPriority(process.pid);
    const { thread, main } = await nicenessInWorker(lowerThreadPrioritySource(7));
    expect(thread).toBe(Math.max(before, 7));
    expect(main).toBe(before);
    expect(getPriority(process.pid)).toBe(before);
  });

  it('leaves the thread alone with niceness 0', async () => {
    const before = getPriority(process.pid);
    const { thread } = await nicenessInWorker(lowerThreadPrioritySource(0));
    expect(thread).toBe(before);
  });

  it('refuses a niceness outside 0-19', () => {
    expect(() => lowerThreadPrioritySource(-1)).toThrow(/0-19/);
    expect(() => lowerThreadPrioritySource(20)).toThrow(/0-19/);
    expect(() => lowerThreadPrioritySource(2.5)).toThrow(/0-19/);
  });
});
