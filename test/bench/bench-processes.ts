import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../support/free-port';

export interface Running {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcess;
  output(): string;
  /** Resident memory now, in MiB (from /proc). */
  rssMiB(): number;
  stop(): Promise<void>;
}

/**
 * Starts `node <script>` pinned to `cpu` (taskset) and waits for a `READY <url>` line, or for
 * `readyUrl` to answer when the process prints none (the gateway). Bounded: 60 s.
 */
export async function startProcess(options: {
  name: string;
  script: string;
  args?: string[];
  cpu: string;
  env?: Record<string, string>;
  readyUrl?: (port: number) => string;
  port?: number;
  nodeArgs?: string[];
  /** Sent first on stop (then SIGTERM, then SIGKILL). */
  stopSignal?: NodeJS.Signals;
}): Promise<Running> {
  const child = spawn(
    'taskset',
    [
      '-c',
      options.cpu,
      process.execPath,
      ...(options.nodeArgs ?? []),
      options.script,
      ...(options.args ?? []),
    ],
    {
      env: {
        ...process.env,
        ...options.env,
        ...(options.port ? { PORT: String(options.port) } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  const keep = (d: Buffer) => {
    output = (output + d.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + 60_000;
  let url = '';
  while (!url) {
    if (child.exitCode !== null)
      throw new Error(`${options.name} exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not start within 60 s:\n${output}`);
    }
    const ready = /READY (\S+)/.exec(output);
    if (ready) url = ready[1]!;
    else if (options.readyUrl && options.port) {
      try {
        const res = await fetch(options.readyUrl(options.port));
        if (res.ok) url = `http://127.0.0.1:${options.port}`;
      } catch {
        // not up yet
      }
    }
    if (!url) await sleep(100);
  }
  return {
    name: options.name,
    url,
    child,
    output: () => output,
    rssMiB: () => rssMiBOf(child.pid),
    stop: () => stopChild(child, options.stopSignal),
  };
}

export function rssMiBOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmRSS:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/**
 * Proportional set size in MiB: each page shared with other processes (the `node` binary both the
 * relay and its projector map, libraries) counted as its share, so two processes' figures add up
 * to what they hold together. 0 when the kernel does not say (no smaps_rollup).
 */
export function pssMiBOf(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = /^Pss:\s+(\d+) kB/m.exec(rollup);
    return kb ? Number(kb[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** `first` (default SIGTERM), SIGTERM after 5 s, then SIGKILL after 10 s. */
export function stopChild(child: ChildProcess, first: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const term = setTimeout(() => child.kill('SIGTERM'), 5000);
    const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(term);
      clearTimeout(kill);
      resolve();
    });
    child.kill(first);
  });
}

/** Samples a process's RSS every `everyMs` until stopped; returns max and the samples. */
export function sampleRss(running: Running, everyMs = 100) {
  const samples: Array<{ t: number; mib: number }> = [];
  const timer = setInterval(() => samples.push({ t: Date.now(), mib: running.rssMiB() }), everyMs);
  return {
    stop() {
      clearInterval(timer);
      samples.push({ t: Date.now(), mib: running.rssMiB() });
      return { max: Math.max(...samples.map((s) => s.mib)), samples };
    },
  };
}

export { freePort };

const ROOT = join(__dirname, '../../..');

/**
 * This checkout's mock upstream (`mock-upstream.process.js`) pinned to `cpu`, the load generator's
 * core in every measure; `env` tunes it (e.g. CHUNK_INTERVAL_MS).
 */
export function startMockUpstream(cpu = '1', env?: Record<string, string>): Promise<Running> {
  return startProcess({
    name: 'mock upstream',
    script: join(__dirname, 'mock-upstream.process.js'),
    cpu,
    ...(env ? { env } : {}),
  });
}

/** This checkout's built gateway. */
export const GATEWAY_MAIN = join(ROOT, 'dist/apps/gateway/src/main.js');

/**
 * The built gateway (dist) on a free port with `dataDir`, pinned to `cpu`, quiet, no critical rate
 * limit; `env` and the node arguments added (a profile run passes `--cpu-prof` and its signal).
 * `script`: another build's `main.js` (the A/B measures), this checkout's by default.
 */
export async function startBenchGateway(options: {
  dataDir: string;
  cpu: string;
  script?: string;
  name?: string;
  env?: Record<string, string>;
  nodeArgs?: string[];
  stopSignal?: NodeJS.Signals;
}): Promise<Running> {
  const port = await freePort();
  return startProcess({
    name: options.name ?? 'gateway',
    script: options.script ?? GATEWAY_MAIN,
    cpu: options.cpu,
    port,
    env: {
      HOST: '127.0.0.1',
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'warn',
      CRITICAL_RATE_LIMIT: '0',
      CONSOLE_DIR: join(ROOT, 'frontend/dist'),
      ...options.env,
    },
    ...(options.nodeArgs ? { nodeArgs: options.nodeArgs } : {}),
    ...(options.stopSignal ? { stopSignal: options.stopSignal } : {}),
    readyUrl: (p) => `http://127.0.0.1:${p}/api/status`,
  });
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Busy and total jiffies of each CPU, from /proc/stat (idle and iowait count as not busy). */
function cpuTimes(): Array<{ busy: number; total: number }> {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((line) => /^cpu\d+ /.test(line))
    .map((line) => {
      const fields = line.trim().split(/\s+/).slice(1).map(Number);
      const total = fields.reduce((sum, value) => sum + value, 0);
      return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
    });
}

/**
 * How busy each CPU was from now until `stop()`, in % (whatever ran there: on this 2-core harness
 * CPU 1 holds the load generator, the mock upstream, the observers and part of the projector).
 */
export function cpuBusy() {
  const before = cpuTimes();
  return {
    stop(): string {
      return cpuTimes()
        .map((now, cpu) => {
          const then = before[cpu] ?? { busy: 0, total: 0 };
          const share = (now.busy - then.busy) / Math.max(1, now.total - then.total);
          return `CPU ${cpu} ${Math.round(share * 100)} %`;
        })
        .join(', ');
    },
  };
}

/** Clock ticks per second of /proc's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/**
 * CPU milliseconds (user + system) of this process's children that have ended and been waited
 * for (`cutime` + `cstime` of /proc/self/stat): a synchronous child's CPU, read before and after.
 */
export function endedChildrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // The fields after the command name (which may hold spaces), from field 3 (state) on.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]); // fields 16 and 17: cutime, cstime
  return (ticks * 1000) / USER_HZ;
}
