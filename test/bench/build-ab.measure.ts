/**
 * `node dist/test/bench/build-ab.measure.js <checkout A> <checkout B> [rounds] [seconds]`: two builds
 * of the gateway (each checkout's `npm run build:server` output) side by side, in alternating rounds,
 * under the same closed-loop chat load (16 connections or CONNECTIONS, `gpt-4o-mini`, answered at once by this
 * checkout's mock upstream). Each round starts each build on a fresh data directory, pinned to
 * CPU 0 as `npm run bench` does (its projector child on every core), and prints requests per second
 * and the CPU each process used per request (from /proc: what a change on the hot path should
 * move, and much steadier than throughput on a shared machine). Nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { load } from './bench-load';
import { startMockUpstream } from './bench-processes';
import { CHAT_BODY } from './bench-shared';
import { cpuMsOf } from './projector-child';
import { withWarmGateway } from './warm-gateway';

const [rootA, rootB] = process.argv.slice(2, 4);
const ROUNDS = Number(process.argv[4] ?? 3);
const SECONDS = Number(process.argv[5] ?? 8);
/** CONNECTIONS=<n>: the load's concurrency (16 by default; 1 for the latency path). */
const CONNECTIONS = Number(process.env['CONNECTIONS'] ?? 16);
const DIST = join(__dirname, '..', '..');

interface Figures {
  readonly rps: number;
  readonly relayUs: number;
  readonly projectorUs: number;
}

/** PROFILE_DIR=<dir>: each gateway writes a CPU profile of its run there (`--cpu-prof`). */
const PROFILE_DIR = process.env['PROFILE_DIR'];

function profiling(name: string) {
  if (!PROFILE_DIR) return {};
  return {
    nodeArgs: [
      '--cpu-prof',
      `--cpu-prof-dir=${join(PROFILE_DIR, name)}`,
      '-r',
      join(DIST, 'test/bench/profile-exit.preload.js'),
    ],
    stopSignal: 'SIGUSR2' as const,
  };
}

async function measure(name: string, root: string, upstreamUrl: string): Promise<Figures> {
  const start = {
    ...profiling(name),
    name: `gateway ${root}`,
    script: join(root, 'dist/apps/gateway/src/main.js'),
    upstreamUrl,
  };
  return withWarmGateway(start, async ({ relayPid, projectorPid, target }) => {
    const relay0 = cpuMsOf(relayPid);
    const projector0 = cpuMsOf(projectorPid);
    const run = await load(target, { body: CHAT_BODY, connections: CONNECTIONS, seconds: SECONDS });
    const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, run.ok));
    if (run.failed > 0) process.stdout.write(`  ${run.failed} failed requests\n`);
    return {
      rps: Math.round(run.rps),
      relayUs: per(cpuMsOf(relayPid) - relay0),
      projectorUs: per(cpuMsOf(projectorPid) - projector0),
    };
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function main(): Promise<void> {
  if (!rootA || !rootB) throw new Error('usage: build-ab.measure.js <checkout A> <checkout B>');
  spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream();
  const all: Record<'A' | 'B', Figures[]> = { A: [], B: [] };
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [name, root] of [
        ['A', rootA],
        ['B', rootB],
      ] as const) {
        const f = await measure(name, root, upstream.url);
        all[name].push(f);
        process.stdout.write(
          `round ${round} ${name}: ${f.rps} rps, CPU per request relay ${f.relayUs} µs + projector ${f.projectorUs} µs\n`,
        );
      }
    }
  } finally {
    await upstream.stop();
  }
  const line = (name: 'A' | 'B') =>
    `${name}: median ${median(all[name].map((f) => f.rps))} rps, relay ${median(all[name].map((f) => f.relayUs))} µs, projector ${median(all[name].map((f) => f.projectorUs))} µs per request`;
  process.stdout.write(`${line('A')}\n${line('B')}\n`);
  const ratio =
    median(all.B.map((f) => f.relayUs)) / Math.max(1, median(all.A.map((f) => f.relayUs)));
  process.stdout.write(`relay CPU per request B / A: ${ratio.toFixed(3)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
