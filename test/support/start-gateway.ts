import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port';
import { tempDataDir } from './test-app';

const ROOT = join(__dirname, '../..');
const MAIN = join(ROOT, 'dist/apps/gateway/src/main.js');

export interface RunningGateway {
  readonly url: string;
  readonly dataDir: string;
  /** Resolves with the exit code (null when killed by a signal) once the process ends. */
  readonly exited: Promise<number | null>;
  /** The gateway process (crash tests kill it with SIGKILL). */
  readonly pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  stop(): Promise<void>;
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`gateway exited with ${child.exitCode ?? child.signalCode}:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/status`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gateway did not start within 30 s:\n${log()}`);
}

/**
 * Starts the built gateway (`npm run build`) as its own process on a free port with a temp DATA_DIR,
 * serving the built console — what a user runs, for the browser tests.
 */
export async function startGateway(
  options: { dataDir?: string; env?: Record<string, string>; nodeArgs?: string[] } = {},
): Promise<RunningGateway> {
  if (!existsSync(MAIN))
    throw new Error('dist/apps/gateway/src/main.js is missing: run `npm run build` first');
  const dataDir = options.dataDir ?? tempDataDir();
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      CRITICAL_RATE_LIMIT: '0',
      CONSOLE_DIR: join(ROOT, 'frontend/dist'),
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(url, child, () => output);
  return {
    url,
    dataDir,
    exited,
    pid: child.pid ?? 0,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        // Already gone (a crash test's SIGKILL): 'exit' has fired and will not fire again.
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
