import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { type LoadResult, load, type Target } from './bench-load';
import { cpuBusy, sleep } from './bench-processes';
import { CHAT_BODY } from './bench-shared';
import {
  readDurableBuckets,
  receiptDurability,
  type ReceiptDurability,
} from './receipt-durability';

/** S6's goal: a receipt durable within this many ms of its answer, at the 99th percentile. */
export const DURABLE_GOAL_MS = 10;

/**
 * Runs `dist/test/bench/<script>` pinned to `cpu` for `seconds` (its last argument) and resolves
 * with the one line of JSON it prints: the observers run apart from the load generator's busy loop.
 */
export function runProbe<T>(
  cpu: string,
  script: string,
  args: readonly string[],
  seconds: number,
): Promise<T> {
  const child = spawn(
    'taskset',
    ['-c', cpu, process.execPath, join(__dirname, script), ...args, String(seconds)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), (seconds + 60) * 1000);
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearTimeout(killer);
      if (code !== 0) return reject(new Error(`${script} exited ${code}: ${err}`));
      resolve(JSON.parse(out) as T);
    });
  });
}

export interface DurabilityAndLag {
  /** The chat load that ran meanwhile. */
  readonly load: LoadResult;
  /** Every receipt of the load, as the gateway timed it to its commit (S6). */
  readonly receipts: ReceiptDurability;
  /** Per probe: ms from its answer until its receipt is in `events.sqlite` (S6), sorted. */
  readonly durable: number[];
  /** Per probe: ms from durable until the `users` projection's checkpoint passed it (S7), sorted. */
  readonly lag: number[];
  /** Probes whose receipt was not seen within 2 s. */
  readonly missing: number;
  /** How busy each CPU was meanwhile. */
  readonly busy: string;
}

/**
 * S6/S7: a fixed-rate chat load of `rate` for `seconds` on `gw`, with the durability probe
 * (durability-probe.process.ts on `probeCpu`) sending its own requests on the probe token meanwhile.
 */
export async function durabilityAndLag(options: {
  gw: Target;
  probeKey: string;
  probeTokenId: number;
  dataDir: string;
  rate: number;
  seconds: number;
  probeCpu: string;
}): Promise<DurabilityAndLag> {
  const { gw, rate, seconds } = options;
  const bucketsBefore = await readDurableBuckets(gw.url);
  const running = load(gw, { body: CHAT_BODY, connections: 64, seconds, rate: Math.round(rate) });
  await sleep(300);
  const busy = cpuBusy();
  const probed = runProbe<{ durable: number[]; lag: number[]; missing: number }>(
    options.probeCpu,
    'durability-probe.process.js',
    [gw.url, options.probeKey, String(options.probeTokenId), options.dataDir],
    seconds - 0.8,
  );
  const result = await running;
  const { durable, lag, missing } = await probed;
  // The last receipts commit within ms of the load's end; the probe's own wait covers that.
  const bucketsAfter = await readDurableBuckets(gw.url);
  return {
    load: result,
    receipts: receiptDurability(bucketsBefore, bucketsAfter, DURABLE_GOAL_MS),
    durable: durable.sort((a, b) => a - b),
    lag: lag.sort((a, b) => a - b),
    missing,
    busy: busy.stop(),
  };
}
