/**
 * `node dist/test/bench/build-ab.measure.js <checkout A> <checkout B> [rounds] [seconds]`: two builds
 * of the gateway (each checkout's `npm run build:server` output) side by side, in alternating rounds,
 * under the same closed-loop chat load (16 connections or CONNECTIONS, `gpt-4o-mini`, answered at once by this
 * checkout's mock upstream). Each round starts each build on a fresh data directory, pinned to
 * CPU 0 as `npm run bench` does (its projector child on every core), and prints requests per second
 * and the CPU each process used per request (from /proc: what a change on the hot path should
 * move, and much steadier than throughput on a shared machine). Nothing is asserted.
 *
 * LATENCY=1: S1's measure instead. Each round starts both builds side by side and times one
 * request after the other against each, in one-second blocks taken in turn (`latencyLoop`, as
 * `npm run bench` does with the bare proxy), `seconds` per build; it prints each one's p50 and p99.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { latencyLoop, load, type LatencyResult } from './bench-load';
import { startMockUpstream } from './bench-processes';
import { CHAT_BODY } from './bench-shared';
import { cpuMsOf, threadCpuMsOf, type ThreadCpuMs } from './projector-child';
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
  /** relayUs by thread: the loop, the event store's writer, the rest (V8's helpers, libuv). */
  readonly relaySplit: ThreadCpuMs;
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
  return withWarmGateway(
    gatewayStart(name, root, upstreamUrl),
    async ({ relayPid, projectorPid, target }) => {
      const relay0 = cpuMsOf(relayPid);
      const split0 = threadCpuMsOf(relayPid);
      const projector0 = cpuMsOf(projectorPid);
      const run = await load(target, {
        body: CHAT_BODY,
        connections: CONNECTIONS,
        seconds: SECONDS,
      });
      const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, run.ok));
      const split = threadCpuMsOf(relayPid);
      if (run.failed > 0) process.stdout.write(`  ${run.failed} failed requests\n`);
      return {
        rps: Math.round(run.rps),
        relayUs: per(cpuMsOf(relayPid) - relay0),
        relaySplit: {
          loop: per(split.loop - split0.loop),
          writer: per(split.writer - split0.writer),
          other: per(split.other - split0.other),
        },
        projectorUs: per(cpuMsOf(projectorPid) - projector0),
      };
    },
  );
}

const LATENCY = process.env['LATENCY'] === '1';

function gatewayStart(name: string, root: string, upstreamUrl: string) {
  return {
    ...profiling(name),
    name: `gateway ${root}`,
    script: join(root, 'dist/apps/gateway/src/main.js'),
    upstreamUrl,
  };
}

/** One round of LATENCY=1: both builds running, timed in alternating blocks. */
function latencyRound(upstreamUrl: string): Promise<LatencyResult[]> {
  return withWarmGateway(gatewayStart('A', rootA!, upstreamUrl), (a) =>
    withWarmGateway(gatewayStart('B', rootB!, upstreamUrl), (b) =>
      latencyLoop([a.target, b.target], CHAT_BODY, SECONDS),
    ),
  );
}

async function latencyRounds(upstreamUrl: string): Promise<void> {
  const all: LatencyResult[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results = await latencyRound(upstreamUrl);
    all.push(results);
    const [a, b] = results as [LatencyResult, LatencyResult];
    process.stdout.write(
      `round ${round}: A p50 ${Math.round(a.p50Us)} / p99 ${Math.round(a.p99Us)} µs (n ${a.n}), ` +
        `B p50 ${Math.round(b.p50Us)} / p99 ${Math.round(b.p99Us)} µs (n ${b.n})\n`,
    );
  }
  const of = (i: 0 | 1, key: 'p50Us' | 'p99Us') => Math.round(median(all.map((r) => r[i]![key])));
  process.stdout.write(
    `medians: A p50 ${of(0, 'p50Us')} / p99 ${of(0, 'p99Us')} µs, ` +
      `B p50 ${of(1, 'p50Us')} / p99 ${of(1, 'p99Us')} µs\n`,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

async function main(): Promise<void> {
  if (!rootA || !rootB) throw new Error('usage: build-ab.measure.js <checkout A> <checkout B>');
  spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream();
  if (LATENCY) {
    try {
      return await latencyRounds(upstream.url);
    } finally {
      await upstream.stop();
    }
  }
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
          `round ${round} ${name}: ${f.rps} rps, CPU per request relay ${f.relayUs} µs` +
            ` (loop ${f.relaySplit.loop}, writer ${f.relaySplit.writer}, other ${f.relaySplit.other})` +
            ` + projector ${f.projectorUs} µs\n`,
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
