/**
 * `node dist/test/bench/build-ab.measure.js <checkout A> <checkout B> [rounds] [seconds]`: two builds
 * of the gateway (each checkout's `npm run build:server` output; the same checkout twice to compare
 * node arguments) under the same chat load (`gpt-4o-mini`, answered at once by this checkout's mock
 * upstream), each pinned to CPU 0 as `npm run bench` does (its projector child on every core).
 * Nothing is asserted.
 *
 * By default both builds run side by side for the whole measure, on fresh data directories, and
 * each round loads one, then the other, for `seconds` each (A first in odd rounds, B first in even
 * ones; a first block on each is not counted), with a closed loop of 16 connections (or
 * CONNECTIONS). It prints requests per second and the CPU each process used per request (from
 * /proc: what a change on the hot path should move). Side by side, a spell of the shared VM weighs
 * on both alike: one build against itself read its relay CPU per request within 5 %, where a fresh
 * gateway per round (how this measure ran until 2026-12-07) read one build up to 39 % apart.
 *
 * RATE=<requests a second>: a fixed rate instead of the closed loop (64 connections unless
 * CONNECTIONS), and each block prints the receipts' time to durability as the gateway recorded it
 * (`tollgate_usage_receipt_durable_seconds`, S6's measure).
 *
 * LATENCY=1: S1's measure instead. Each round starts both builds side by side and times one
 * request after the other against each, in one-second blocks taken in turn (`latencyLoop`, as
 * `npm run bench` does with the bare proxy), `seconds` per build; it prints each one's p50 and p99.
 *
 * NODE_ARGS_A / NODE_ARGS_B: node arguments for that side (space-separated), e.g. a V8 flag.
 * PROFILE_DIR=<dir>: each gateway writes a CPU profile of its run there (`--cpu-prof`).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { latencyLoop, load, pct, type LatencyResult } from './bench-load';
import { startMockUpstream } from './bench-processes';
import { CHAT_BODY } from './bench-shared';
import { cpuMsOf, threadCpuMsOf, type ThreadCpuMs } from './projector-child';
import { readDurableBuckets, receiptDurability } from './receipt-durability';
import { withWarmGateway, type WarmGateway } from './warm-gateway';

const [rootA, rootB] = process.argv.slice(2, 4);
const ROUNDS = Number(process.argv[4] ?? 3);
const SECONDS = Number(process.argv[5] ?? 8);
const LATENCY = process.env['LATENCY'] === '1';
const RATE = Number(process.env['RATE'] ?? 0);
/** The load's concurrency: 16 for the closed loop, 64 under RATE. */
const CONNECTIONS = Number(process.env['CONNECTIONS'] ?? (RATE > 0 ? 64 : 16));
/** S6's goal: the share of receipts durable within this many ms is printed. */
const DURABLE_WITHIN_MS = 10;
/** After a RATE block, for the last receipts' commits to reach the histogram. */
const SETTLE_MS = 500;
const DIST = join(__dirname, '..', '..');
const PROFILE_DIR = process.env['PROFILE_DIR'];

type SideName = 'A' | 'B';

interface Side {
  readonly name: SideName;
  readonly root: string;
  readonly nodeArgs: readonly string[];
}

interface Figures {
  readonly rps: number;
  readonly relayUs: number;
  /** relayUs by thread: the loop, the event store's writer, the rest (V8's helpers, libuv). */
  readonly relaySplit: ThreadCpuMs;
  readonly projectorUs: number;
  /** Under RATE: the block's receipts, from settlement to commit. */
  readonly durable?: { readonly p50Ms: number; readonly p99Ms: number; readonly within: number };
}

const argsOf = (value: string | undefined): string[] => value?.split(' ').filter(Boolean) ?? [];

function gatewayStart(side: Side, upstreamUrl: string) {
  const profile = PROFILE_DIR
    ? {
        nodeArgs: [
          '--cpu-prof',
          `--cpu-prof-dir=${join(PROFILE_DIR, side.name)}`,
          '-r',
          join(DIST, 'test/bench/profile-exit.preload.js'),
        ],
        stopSignal: 'SIGUSR2' as const,
      }
    : { nodeArgs: [] };
  return {
    ...profile,
    nodeArgs: [...profile.nodeArgs, ...side.nodeArgs],
    name: `gateway ${side.name} ${side.root}`,
    script: join(side.root, 'dist/apps/gateway/src/main.js'),
    upstreamUrl,
  };
}

/** Both builds warm and running until `measure` ends. */
function sideBySide<T>(
  sides: readonly [Side, Side],
  upstreamUrl: string,
  measure: (a: WarmGateway, b: WarmGateway) => Promise<T>,
): Promise<T> {
  return withWarmGateway(gatewayStart(sides[0], upstreamUrl), (a) =>
    withWarmGateway(gatewayStart(sides[1], upstreamUrl), (b) => measure(a, b)),
  );
}

/** One block of load on one gateway, and what it cost that gateway's processes. */
async function block(warm: WarmGateway): Promise<Figures> {
  const { relayPid, projectorPid, target } = warm;
  const split0 = threadCpuMsOf(relayPid);
  const projector0 = cpuMsOf(projectorPid);
  const buckets0 = RATE > 0 ? await readDurableBuckets(target.url) : undefined;
  const run = await load(target, {
    body: CHAT_BODY,
    connections: CONNECTIONS,
    seconds: SECONDS,
    ...(RATE > 0 ? { rate: RATE } : {}),
  });
  const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, run.ok));
  const split = threadCpuMsOf(relayPid);
  const relaySplit = {
    loop: per(split.loop - split0.loop),
    writer: per(split.writer - split0.writer),
    other: per(split.other - split0.other),
  };
  const figures: Figures = {
    rps: Math.round(run.rps),
    // The split's parts add up to the process's time (other is the rest of it).
    relayUs: relaySplit.loop + relaySplit.writer + relaySplit.other,
    relaySplit,
    projectorUs: per(cpuMsOf(projectorPid) - projector0),
  };
  if (run.failed > 0) process.stdout.write(`  ${run.failed} failed requests\n`);
  if (!buckets0) return figures;
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const receipts = receiptDurability(
    buckets0,
    await readDurableBuckets(target.url),
    DURABLE_WITHIN_MS,
  );
  return {
    ...figures,
    durable: { p50Ms: receipts.p50Ms, p99Ms: receipts.p99Ms, within: receipts.withinShare },
  };
}

function describe(f: Figures): string {
  const cpu =
    `CPU per request relay ${f.relayUs} µs (loop ${f.relaySplit.loop}, writer ` +
    `${f.relaySplit.writer}, other ${f.relaySplit.other}) + projector ${f.projectorUs} µs`;
  if (!f.durable) return `${f.rps} rps, ${cpu}`;
  const { p50Ms, p99Ms, within } = f.durable;
  return (
    `${f.rps} rps, receipts durable p50 ${p50Ms.toFixed(2)} / p99 ${p99Ms.toFixed(1)} ms, ` +
    `${(within * 100).toFixed(1)} % within ${DURABLE_WITHIN_MS} ms; ${cpu}`
  );
}

async function loadRounds(sides: readonly [Side, Side], upstreamUrl: string): Promise<void> {
  const all: Record<SideName, Figures[]> = { A: [], B: [] };
  await sideBySide(sides, upstreamUrl, async (a, b) => {
    // Not counted: each gateway's first block at this load read 10–30 % more CPU a request than
    // the next ones (the warm-up is shorter and at 16 connections).
    await block(a);
    await block(b);
    for (let round = 1; round <= ROUNDS; round++) {
      const order =
        round % 2 === 1
          ? ([
              ['A', a],
              ['B', b],
            ] as const)
          : ([
              ['B', b],
              ['A', a],
            ] as const);
      for (const [name, warm] of order) {
        const figures = await block(warm);
        all[name].push(figures);
        process.stdout.write(`round ${round} ${name}: ${describe(figures)}\n`);
      }
    }
  });
  const of = (name: SideName, value: (f: Figures) => number) => median(all[name].map(value));
  for (const name of ['A', 'B'] as const) {
    const durable = all[name][0]?.durable
      ? `, receipts durable p50 ${of(name, (f) => f.durable!.p50Ms).toFixed(2)} / p99 ` +
        `${of(name, (f) => f.durable!.p99Ms).toFixed(1)} ms`
      : '';
    process.stdout.write(
      `${name}: median ${Math.round(of(name, (f) => f.rps))} rps, relay ` +
        `${Math.round(of(name, (f) => f.relayUs))} µs, projector ` +
        `${Math.round(of(name, (f) => f.projectorUs))} µs per request${durable}\n`,
    );
  }
  const ratio =
    of('B', (f) => f.relayUs) /
    Math.max(
      1,
      of('A', (f) => f.relayUs),
    );
  process.stdout.write(`relay CPU per request B / A: ${ratio.toFixed(3)}\n`);
}

async function latencyRounds(sides: readonly [Side, Side], upstreamUrl: string): Promise<void> {
  const all: LatencyResult[][] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const results = await sideBySide(sides, upstreamUrl, (a, b) =>
      latencyLoop([a.target, b.target], CHAT_BODY, SECONDS),
    );
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

const median = (values: readonly number[]) =>
  pct(
    [...values].sort((a, b) => a - b),
    0.5,
  );

async function main(): Promise<void> {
  if (!rootA || !rootB) throw new Error('usage: build-ab.measure.js <checkout A> <checkout B>');
  const sides: [Side, Side] = [
    { name: 'A', root: rootA, nodeArgs: argsOf(process.env['NODE_ARGS_A']) },
    { name: 'B', root: rootB, nodeArgs: argsOf(process.env['NODE_ARGS_B']) },
  ];
  spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream();
  try {
    if (LATENCY) await latencyRounds(sides, upstream.url);
    else await loadRounds(sides, upstream.url);
  } finally {
    await upstream.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
