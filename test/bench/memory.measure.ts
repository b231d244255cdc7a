/**
 * `node dist/test/bench/memory.measure.js --variant a=<dist> --variant b=<dist>:<NODE_OPTIONS> …`
 *
 * S5 A/B: each variant is a built gateway (a copy of dist, e.g. under .tmp/) started the default way
 * (relay process + projector child) with NODE_OPTIONS for both processes. Variants take turns,
 * `--rounds` times each; every turn starts a fresh gateway on a fresh DATA_DIR, sets it up through
 * the API like the bench, and reads /proc: RSS after set-up, idle RSS after a warm-up and `--quiet`
 * seconds without traffic (S5's idle; also the pages resident in either process, counted once),
 * then peak RSS, the relay's scavenges and full collections (--trace-gc) and CPU per request under
 * a fixed `--rate` (0: saturation at 64 connections) for `--seconds`, or for `--amount` requests
 * at saturation (the same work however busy the VM is).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { load } from './bench-load';
import { sleep, startBenchGateway, startMockUpstream } from './bench-processes';
import { setUpAccount } from './bench-setup';
import { CHAT_BODY } from './bench-shared';
import { cpuMsOf, releaseProjector, rssOf } from './projector-child';
import { residentUnionMiB } from './resident-union';

const argv = process.argv.slice(2);
const numberArg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 ? Number(argv[i + 1]) : fallback;
};
const variants = argv.flatMap((arg, i) => {
  if (argv[i - 1] !== '--variant') return [];
  const [name, rest] = [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)];
  const [dist, nodeOptions = ''] = rest.split(':');
  return [{ name, dist: resolve(dist!), nodeOptions }];
});
const PLAN = {
  rounds: numberArg('rounds', 2),
  // As the bench's S5 idle: after V8's memory reducer has given back the young generation.
  quietSeconds: numberArg('quiet', 120),
  rate: numberArg('rate', 2000),
  seconds: numberArg('seconds', 15),
  /** Requests at saturation instead of a rate for a time: the same work however busy the VM is. */
  amount: numberArg('amount', 0),
};
const CPU_SERVER = '0';
const CPU_LOAD = '1';
const f = (n: number) => n.toFixed(1);

interface Turn {
  variant: string;
  setUp: string;
  idle: string;
  idleTotal: number;
  /** The pages resident in either process, each counted once (null when the kernel hides them). */
  idleUnion: number | null;
  peakTotal: number;
  peak: string;
  /** Each process's own highest RSS (they need not peak at the same moment). */
  ownPeaks: string;
  rps: number;
  failed: number;
  scavenges: number;
  /** Full (mark-compact) collections of the relay's heap under the load. */
  fullGcs: number;
  relayCpuUs: number;
  projectorCpuUs: number;
}

async function turn(variant: (typeof variants)[number], upstreamUrl: string): Promise<Turn> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-memory-'));
  const gateway = await startBenchGateway({
    name: `gateway ${variant.name}`,
    script: join(variant.dist, 'apps/gateway/src/main.js'),
    cpu: CPU_SERVER,
    dataDir,
    nodeArgs: ['--trace-gc'],
    env: { NODE_OPTIONS: variant.nodeOptions },
  });
  let scavenges = 0;
  let fullGcs = 0;
  gateway.child.stdout?.on('data', (d: Buffer) => {
    const text = d.toString();
    scavenges += (text.match(/Scavenge/g) ?? []).length;
    fullGcs += (text.match(/Mark-Compact/g) ?? []).length;
  });
  try {
    const relayPid = gateway.child.pid!;
    const projectorPid = await releaseProjector(relayPid);
    const account = await setUpAccount(gateway.url, upstreamUrl);
    const target = { url: gateway.url, headers: { authorization: `Bearer ${account.key}` } };
    const split = () => rssOf(relayPid, projectorPid);
    const line = (s: { relay: number; projector: number }) => `${f(s.relay)} + ${f(s.projector)}`;
    const setUp = line(split());
    await load(target, { body: CHAT_BODY, connections: 16, seconds: 1 });
    await sleep(PLAN.quietSeconds * 1000);
    const idle = split();
    const idleUnion = residentUnionMiB(projectorPid ? [relayPid, projectorPid] : [relayPid]);
    let peak = idle;
    const own = { relay: idle.relay, projector: idle.projector };
    const timer = setInterval(() => {
      const now = split();
      if (now.total > peak.total) peak = now;
      own.relay = Math.max(own.relay, now.relay);
      own.projector = Math.max(own.projector, now.projector);
    }, 100);
    const [relay0, projector0, scavenges0, fullGcs0] = [
      cpuMsOf(relayPid),
      cpuMsOf(projectorPid),
      scavenges,
      fullGcs,
    ];
    const result = await load(target, {
      body: CHAT_BODY,
      connections: PLAN.rate && !PLAN.amount ? 32 : 64,
      seconds: PLAN.seconds,
      ...(PLAN.rate && !PLAN.amount ? { rate: PLAN.rate } : {}),
      ...(PLAN.amount ? { amount: PLAN.amount } : {}),
    });
    clearInterval(timer);
    const perRequest = (ms: number) => Math.round((ms * 1000) / Math.max(1, result.ok));
    return {
      variant: variant.name,
      setUp,
      idle: line(idle),
      idleTotal: idle.total,
      idleUnion,
      peak: line(peak),
      ownPeaks: line(own),
      peakTotal: peak.total,
      rps: Math.round(result.rps),
      failed: result.failed,
      scavenges: scavenges - scavenges0,
      fullGcs: fullGcs - fullGcs0,
      relayCpuUs: perRequest(cpuMsOf(relayPid) - relay0),
      projectorCpuUs: perRequest(cpuMsOf(projectorPid) - projector0),
    };
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (variants.length === 0)
    throw new Error('give at least one --variant name=<dist>[:NODE_OPTIONS]');
  // The load generator shares CPU 1 with the upstream; the relay process has CPU 0 (as in the bench).
  spawnSync('taskset', ['-p', '-c', CPU_LOAD, String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream(CPU_LOAD);
  const turns: Turn[] = [];
  try {
    for (let round = 0; round < PLAN.rounds; round += 1)
      for (const variant of variants) {
        const result = await turn(variant, upstream.url);
        turns.push(result);
        process.stdout.write(`${JSON.stringify(result)}\n`);
      }
  } finally {
    await upstream.stop();
  }
  process.stdout.write(
    `\n${JSON.stringify(PLAN)}\n| variant | after set-up MiB | idle MiB (relay + projector) | idle, resident in either | peak MiB | own peaks MiB | rps (failed) | scavenges, full GCs (relay) | CPU µs/request (relay, projector) |\n|---|---|---|---|---|---|---|---|---|\n`,
  );
  for (const t of turns)
    process.stdout.write(
      `| ${t.variant} | ${t.setUp} | ${t.idle} = ${f(t.idleTotal)} | ${t.idleUnion === null ? '–' : f(t.idleUnion)} | ${t.peak} = ${f(t.peakTotal)} | ${t.ownPeaks} | ${t.rps} (${t.failed}) | ${t.scavenges}, ${t.fullGcs} | ${t.relayCpuUs}, ${t.projectorCpuUs} |\n`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
