/**
 * `npm run bench [-- --quick] [-- --soak-minutes N] [-- --users N] [-- --profile] [-- --strict]`
 *
 * Starts the mock upstream, the bare pass-through proxy (the physical-limit baseline) and the built
 * gateway on embedded storage in a temp DATA_DIR, each pinned with taskset; sets the gateway up
 * through its API as an administrator would; runs scenarios S1–S9 (docs/performance.md) against the baseline
 * and the gateway in the same run; writes docs/benchmarks.md and docs/benchmarks.json. Every loop is
 * bounded in time; not a pass/fail test.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { SqliteReadStore } from '@tollgate/read-store';
import { ALL_TOTALS, LOG_TOTALS, userTotalsId } from '../../apps/gateway/src/logs/log.document';
import { logsProjection } from '../../apps/gateway/src/logs/logs.projection';
import { logStore } from '../../apps/gateway/src/logs/log-store';
import { usersProjection } from '../../apps/gateway/src/users/users.projection';
import {
  concurrentStreams,
  latencyLoop,
  type LatencyResult,
  load,
  pct,
  type LoadResult,
  type Target,
} from './bench-load';
import {
  endedChildrenCpuMs,
  type Running,
  sampleRss,
  sleep,
  startBenchGateway,
  startMockUpstream,
  startProcess,
} from './bench-processes';
import { writeReport, type Row } from './bench-report';
import { DURABLE_GOAL_MS, durabilityAndLag, runProbe } from './durability-lag';
import { ApiSession, setUpAccount, type BenchAccount } from './bench-setup';
import { CHAT_BODY, SLOW_BODY, USERNAME_WORDS } from './bench-shared';
import { addRoutingChannels, compareRoutingStrategies } from './routing-strategies';
import { cpuSplit, releaseProjector, rssOf, rssSplit } from './projector-child';
import { residentUnionMiB } from './resident-union';
import { seedReceiptLog } from './receipt-log';
import { afterFullCollections } from './after-full-collections';
import { lastingFreePorts } from '../support/free-port';

const ROOT = join(__dirname, '../../..');
const DIST = join(ROOT, 'dist');
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const numberArg = (name: string, fallback: number) => {
  const i = argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(argv[i + 1]) : NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

const QUICK = flag('quick');
const PLAN = {
  latencySeconds: QUICK ? 3 : 10,
  saturationSeconds: QUICK ? 4 : 15,
  saturationConnections: 64,
  fixedRateSeconds: QUICK ? 4 : 12,
  ladder: QUICK ? [1000, 4000] : [1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000],
  streams: 512,
  soakSeconds: numberArg('soak-minutes', QUICK ? 1 / 6 : 10) * 60,
  users: numberArg('users', QUICK ? 30_000 : 1_000_000),
  /** S7's second rebuild: receipts spread over many users. */
  manyUsersReceipts: QUICK ? 20_000 : 300_000,
  // Long enough for a few dozen samples of each console read (a p99 of 7 samples is their maximum).
  consoleSeconds: QUICK ? 5 : 40,
  // Weighted and latency alternate this many times (S9), each run this long.
  routingRounds: QUICK ? 2 : 3,
  routingSeconds: QUICK ? 4 : 10,
};
/**
 * S5 idle: longer than the idle timeouts of the gateway's worker pools (30 s and 60 s) and than
 * V8's memory reducer, which gave back the young generation 77–102 s after the last request in
 * five runs with --trace-gc (its watchdog collects 100 s after the last major GC, which a short
 * load may leave at its very end; readings at 70 and 100 s landed on either side, 40 MiB apart).
 */
const QUIET_SECONDS = 120;
const CPU_SERVER = '0'; // the proxy or the gateway
const CPU_LOAD = '1'; // the mock upstream and the load generator (this process)

const rows: Row[] = [];
const notes: string[] = [];
const log = (text: string) => process.stdout.write(`${text}\n`);

async function main(): Promise<void> {
  // The load generator shares CPU 1 with the upstream; the server under test has CPU 0 to itself.
  spawnSync('taskset', ['-p', '-c', CPU_LOAD, String(process.pid)], { stdio: 'ignore' });
  const started = new Date();
  const loadBefore = (await import('node:os')).loadavg();
  const upstream = await startMockUpstream(CPU_LOAD);
  const proxy = await startProcess({
    name: 'bare proxy',
    script: join(DIST, 'test/bench/bare-proxy.process.js'),
    cpu: CPU_SERVER,
    env: { UPSTREAM_URL: upstream.url },
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-'));
  let gateway = await startGateway(dataDir);
  const stopAll = async () => {
    await Promise.all([gateway.stop(), proxy.stop(), upstream.stop()]);
  };
  try {
    const account = await setUpAccount(gateway.url, upstream.url);
    const base: Target = {
      url: proxy.url,
      headers: { authorization: 'Bearer sk-bench-upstream-key' },
    };
    const gw: Target = { url: gateway.url, headers: { authorization: `Bearer ${account.key}` } };
    await waitForRelay(gw);
    await load(base, { body: CHAT_BODY, connections: 16, seconds: 1 }); // warm-up
    await load(gw, { body: CHAT_BODY, connections: 16, seconds: 1 });
    const busyIdleRss = gateway.rssMiB();
    // Idle means no traffic for a while: the password and console-read workers stop after 30/60 s
    // without work, and V8 shrinks its heap once allocation stops. --quick skips the wait.
    if (!QUICK) await sleep(QUIET_SECONDS * 1000);
    const idleRss = QUICK ? busyIdleRss : gateway.rssMiB();
    const idleSplit = memorySplit(gateway);

    log('S1 added latency at concurrency 1');
    // In alternating one-second blocks (bare, gateway, bare, …), PLAN.latencySeconds each.
    const s1Cpu = cpuSplit(gateway.child.pid!, gateway.projectorPid);
    const [l1b, l1g] = (await latencyLoop([base, gw], CHAT_BODY, PLAN.latencySeconds)) as [
      LatencyResult,
      LatencyResult,
    ];
    const s1CpuLine = s1Cpu.stop(l1g.n);
    row(
      'S1',
      'p50 added over the bare proxy',
      l1g.p50Us - l1b.p50Us,
      'µs',
      '≤ 150 µs',
      l1g.p50Us - l1b.p50Us <= 150,
      `bare ${f(l1b.p50Us)} µs, gateway ${f(l1g.p50Us)} µs (n ${l1b.n}/${l1g.n}, failed ${l1g.failed}); ${s1CpuLine}`,
    );
    row(
      'S1',
      'p99 added over the bare proxy',
      l1g.p99Us - l1b.p99Us,
      'µs',
      '≤ 900 µs',
      l1g.p99Us - l1b.p99Us <= 900,
      `bare ${f(l1b.p99Us)} µs, gateway ${f(l1g.p99Us)} µs`,
    );

    log('S2 saturation throughput');
    const s2b = await load(base, {
      body: CHAT_BODY,
      connections: PLAN.saturationConnections,
      seconds: PLAN.saturationSeconds,
    });
    const rss = sampleRss(gateway);
    const s2Cpu = cpuSplit(gateway.child.pid!, gateway.projectorPid);
    const s2g = await load(gw, {
      body: CHAT_BODY,
      connections: PLAN.saturationConnections,
      seconds: PLAN.saturationSeconds,
    });
    const s2CpuLine = s2Cpu.stop(s2g.ok);
    const peak = rss.stop().max;
    const peakSplit = memorySplit(gateway);
    const ratio = s2g.rps / s2b.rps;
    row(
      'S2',
      'throughput / bare proxy',
      ratio,
      '×',
      '≥ 0.45 (stretch 0.6)',
      ratio >= 0.45,
      `bare ${f(s2b.rps)} rps, gateway ${f(s2g.rps)} rps, gateway failed ${s2g.failed}, p99 ${s2b.p99Ms}/${s2g.p99Ms} ms; ${s2CpuLine}`,
    );

    log('S6/S7 usage durability and projection lag at 90 % of S2');
    await durabilityAndLagRows(gw, account, dataDir, s2g.rps * 0.9);

    log('S3 sustained rate with a 20 ms upstream');
    await sustainedRate(base, gw);

    log('S4 512 concurrent SSE streams');
    const s4b = await concurrentStreams(base, PLAN.streams);
    const before = gateway.rssMiB();
    const streamRss = sampleRss(gateway, 50);
    const s4g = await concurrentStreams(gw, PLAN.streams);
    const streamPeak = streamRss.stop().max;
    const lost = s4g.damaged + s4g.failed + (s4g.streams - s4g.complete - s4g.damaged - s4g.failed);
    row(
      'S4',
      'lost or reordered streams',
      lost,
      'streams',
      '0',
      lost === 0,
      `${s4g.complete}/${s4g.streams} complete (bare ${s4b.complete}/${s4b.streams})`,
    );
    const ftAdded = s4g.firstTokenP99Ms - s4b.firstTokenP99Ms;
    row(
      'S4',
      'first-token p99 added',
      ftAdded,
      'ms',
      '≤ 2 ms',
      ftAdded <= 2,
      `bare ${f(s4b.firstTokenP99Ms)} ms, gateway ${f(s4g.firstTokenP99Ms)} ms (p50 ${f(s4b.firstTokenP50Ms)}/${f(s4g.firstTokenP50Ms)})`,
    );
    const perStream = ((streamPeak - before) * 1024) / PLAN.streams;
    row(
      'S4',
      'memory per stream',
      perStream,
      'KiB',
      '≤ 200 KiB',
      perStream <= 200,
      `RSS ${f(before)} → peak ${f(streamPeak)} MiB`,
    );

    log('S5 memory');
    row(
      'S5',
      QUICK
        ? 'idle RSS (right after the warm-up)'
        : `idle RSS (${QUIET_SECONDS} s without traffic)`,
      idleRss,
      'MiB',
      '≤ 150 MiB',
      idleRss <= 150 && !QUICK,
      `${
        QUICK
          ? '--quick does not wait for the workers to stop: not counted as met'
          : `after set-up, warm-up and ${QUIET_SECONDS} s without requests; right after the warm-up ${f(busyIdleRss)} MiB`
      }; ${memoryLine(idleSplit)}`,
    );
    if (idleSplit.together !== null)
      row(
        'S5',
        QUICK
          ? 'idle, resident in either process'
          : `idle, resident in either process (${QUIET_SECONDS} s)`,
        idleSplit.together,
        'MiB',
        '≤ 150 MiB',
        idleSplit.together <= 150 && !QUICK,
        'the same moment as the row above, each page the two hold counted once (the node binary they both map, too), as a memory cgroup counts them',
      );
    row(
      'S5',
      'peak RSS under S2',
      peak,
      'MiB',
      '≤ 300 MiB',
      peak <= 300,
      `at the end of S2: ${memoryLine(peakSplit)}`,
    );
    await soak(gw, gateway, s2g.rps * 0.3);

    log('S7 rebuild');
    await gateway.stop();
    rebuild(dataDir, 'rebuild speed', "the bench's log, one user's");
    await rebuildManyUsers();

    log(`S8 console reads at scale (${PLAN.users} users)`);
    await seedUsers(dataDir, PLAN.users);
    await seedLogs(dataDir, PLAN.users);
    gateway = await startGateway(dataDir);
    await waitForRelay(gw2(gateway, account));
    await consoleReads(gw2(gateway, account), gateway);

    log('S9 routing strategy: latency against weighted');
    await routingStrategies(gw2(gateway, account), upstream.url);
  } finally {
    await stopAll();
    if (flag('strict')) notes.push('The gateway ran with BILLING_DURABILITY=strict.');
    const loadAfter = (await import('node:os')).loadavg();
    writeReport({
      root: ROOT,
      quick: QUICK,
      started,
      loadBefore,
      loadAfter,
      plan: PLAN,
      rows,
      notes,
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * The relay's and the projector's memory now: their RSS, their PSS, and the pages resident in
 * either counted once (when this process may read their frame numbers).
 */
function memorySplit(gateway: BenchGateway) {
  const pids = [gateway.child.pid!, ...(gateway.projectorPid ? [gateway.projectorPid] : [])];
  return {
    ...rssSplit(gateway.child.pid!, gateway.projectorPid),
    together: residentUnionMiB(pids),
  };
}

/**
 * How S5 counts the default start: the relay process and its projector child together. Two idle
 * rows: their RSS added up (the pages both map, such as the node binary, count twice), and the
 * pages resident in either process, each counted once, which is what the two hold (read from
 * /proc/<pid>/pagemap, which only root may: the row is left out otherwise). PSS, in the notes,
 * shares a page among every process that maps it, the harness's own node processes too, so it
 * reads low.
 */
const memoryLine = (split: ReturnType<typeof memorySplit>) =>
  (split.projector
    ? `relay ${f(split.relay)} + projector ${f(split.projector)} MiB`
    : `relay ${f(split.relay)} MiB (projections inline)`) +
  (split.together === null
    ? ''
    : `; ${f(split.together)} MiB resident in either, each page counted once`) +
  `; PSS ${f(split.pss)} MiB (a shared page split among every process that maps it)`;

const gw2 = (gateway: Running, account: BenchAccount): Target => ({
  url: gateway.url,
  headers: { authorization: `Bearer ${account.key}` },
});

/** The gateway under test: the relay process, and its projector child (the default start). */
type BenchGateway = Running & {
  readonly projectorPid: number | null;
  /** The port each process's inspector opens on SIGUSR1: the soak asks for full collections. */
  readonly inspectPorts: InspectPorts;
};
type InspectPorts = { readonly relay: number; readonly projector: number };

/** Pinned like the bare proxy; its projector child runs on any core; RSS counts both. */
async function startGateway(dataDir: string): Promise<BenchGateway> {
  const [relay, projector] = (await lastingFreePorts(2)) as [number, number];
  const inspectPorts = { relay, projector };
  const running = await startRelayProcess(dataDir, inspectPorts);
  const relayPid = running.child.pid!;
  const projectorPid = await releaseProjector(relayPid);
  return {
    ...running,
    projectorPid,
    inspectPorts,
    rssMiB: () => rssOf(relayPid, projectorPid).total,
  };
}

function startRelayProcess(dataDir: string, inspectPorts: InspectPorts): Promise<Running> {
  const profileDir = flag('profile') ? join(tmpdir(), 'tollgate-profiles') : '';
  return startBenchGateway({
    dataDir,
    cpu: CPU_SERVER,
    env: {
      // The projector child inherits NODE_OPTIONS; the relay's own flag below wins over it.
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --inspect-port=${inspectPorts.projector}`,
      // --strict: every answer's last bytes wait for its receipt's commit (docs/relay.md).
      ...(flag('strict') ? { BILLING_DURABILITY: 'strict' } : {}),
    },
    nodeArgs: [
      `--inspect-port=${inspectPorts.relay}`,
      ...(profileDir
        ? [
            '--cpu-prof',
            `--cpu-prof-dir=${profileDir}`,
            '-r',
            join(DIST, 'test/bench/profile-exit.preload.js'),
          ]
        : []),
    ],
    ...(profileDir ? { stopSignal: 'SIGUSR2' as const } : {}),
  });
}

/** S9: adaptive routing must cost the relay nothing measurable (three channels in one tier). */
async function routingStrategies(gw: Target, upstreamUrl: string) {
  // The gateway was restarted for S8: a session of its own.
  const admin = await new ApiSession(gw.url).login('root', '123456');
  await addRoutingChannels(admin, upstreamUrl);
  const c = await compareRoutingStrategies(admin, gw, {
    connections: PLAN.saturationConnections,
    seconds: PLAN.routingSeconds,
    rounds: PLAN.routingRounds,
  });
  const mean = (strategy: string) => {
    const of = c.runs.filter((r) => r.strategy === strategy).map((r) => r.result.rps);
    return of.reduce((a, b) => a + b, 0) / of.length;
  };
  row(
    'S9',
    'throughput, latency ÷ weighted',
    c.throughputRatio,
    '×',
    `≥ 1 − noise (${f(c.noise)})`,
    c.withinNoise,
    `weighted ${f(mean('weighted'))} rps, latency ${f(mean('latency'))} rps; p99 latency ÷ weighted ${f(c.p99Ratio)}; ${c.runs.length} interleaved runs, noise = the weighted runs' spread`,
  );
}

/** The token directory and routing table fill from the log asynchronously: wait for a 200. */
async function waitForRelay(target: Target): Promise<void> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const res = await fetch(`${target.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { ...target.headers, 'content-type': 'application/json' },
      body: CHAT_BODY,
    });
    const text = await res.text();
    if (res.status === 200) return;
    if (Date.now() > deadline) throw new Error(`relay not ready: ${res.status} ${text}`);
    await sleep(100);
  }
}

async function durabilityAndLagRows(
  gw: Target,
  account: BenchAccount,
  dataDir: string,
  rate: number,
) {
  const {
    load: result,
    receipts,
    durable,
    lag,
    missing,
    busy,
  } = await durabilityAndLag({
    gw,
    probeKey: account.probeKey,
    probeTokenId: account.probeTokenId,
    dataDir,
    rate,
    seconds: PLAN.fixedRateSeconds,
    probeCpu: CPU_LOAD,
  });
  const [low, high] = receipts.p99Bucket;
  row(
    'S6',
    'usage event durable after the response, p99',
    receipts.p99Ms,
    'ms',
    `≤ ${DURABLE_GOAL_MS} ms`,
    receipts.withinShare >= 0.99 && result.rps >= rate * 0.95,
    `${receipts.receipts} receipts timed by the gateway from settlement to commit (tollgate_usage_receipt_durable_seconds): p50 ${f(receipts.p50Ms)} ms, p99 in its ${f(low)}–${f(high)} ms bucket, ${f(receipts.withinShare * 100)} % within ${DURABLE_GOAL_MS} ms; the probe (its own process, polling every 0.5 ms) saw ${durable.length} receipts (${missing} not in 2 s), p50 ${f(pct(durable, 0.5))}, p99 ${f(pct(durable, 0.99))} ms; under ${f(result.rps)} rps (target ${f(rate)} = 90 % of S2); busy: ${busy}`,
  );
  const l99 = pct(lag, 0.99);
  row(
    'S7',
    'projection lag p99 (users read model)',
    l99,
    'ms',
    '≤ 100 ms',
    l99 <= 100,
    `${lag.length} probes, p50 ${f(pct(lag, 0.5))} ms, same load as S6`,
  );
}

async function sustainedRate(base: Target, gw: Target): Promise<void> {
  let bestBase = 0;
  let bestGw = 0;
  const details: string[] = [];
  for (const rate of PLAN.ladder) {
    const connections = Math.max(64, Math.ceil((rate * 0.06) / 1));
    const b = await load(base, {
      body: SLOW_BODY,
      connections,
      seconds: PLAN.fixedRateSeconds,
      rate,
    });
    const g = await load(gw, {
      body: SLOW_BODY,
      connections,
      seconds: PLAN.fixedRateSeconds,
      rate,
    });
    const holds = (r: LoadResult) => r.p99Ms <= 40 && r.rps >= rate * 0.95 && r.failed === 0;
    if (holds(b)) bestBase = rate;
    if (holds(g)) bestGw = rate;
    details.push(
      `${rate}: bare ${f(b.rps)} rps p99 ${b.p99Ms} ms, gateway ${f(g.rps)} rps p99 ${g.p99Ms} ms`,
    );
    if (!holds(g) && !holds(b)) break;
  }
  row(
    'S3',
    'highest sustained rps with p99 ≤ 40 ms (20 ms upstream)',
    bestGw,
    'rps',
    '≥ 6000',
    bestGw >= 6000,
    `bare proxy ${bestBase} rps; ladder ${details.join('; ')}`,
  );
}

/**
 * S5's soak: what the two processes keep after full collections at its middle and at its end. Its
 * first half refills what the idle minutes before it gave back (the projector's RSS after full
 * collections rose from 76 to 84 MiB over 7 minutes after an idle spell, then stayed). The RSS
 * sampled under the load is in the notes; it rides V8's sawtooth (the old generation holds its
 * garbage until the next full collection), tens of MiB from one minute to the next.
 */
async function soak(gw: Target, gateway: BenchGateway, rate: number): Promise<void> {
  const kept = async () => ({
    relay: await afterFullCollections(gateway.child.pid!, gateway.inspectPorts.relay),
    projector: gateway.projectorPid
      ? await afterFullCollections(gateway.projectorPid, gateway.inspectPorts.projector)
      : null,
  });
  const half = () =>
    load(gw, {
      body: CHAT_BODY,
      connections: 32,
      seconds: PLAN.soakSeconds / 2,
      rate: Math.round(rate),
    });
  // Each process's part too, so the notes show whose sampled pages grew.
  const samples: Array<{ t: number; mib: number; relay: number; projector: number }> = [];
  const timer = setInterval(() => {
    const { relay, projector, total } = rssOf(gateway.child.pid!, gateway.projectorPid);
    samples.push({ t: Date.now(), mib: total, relay, projector });
  }, 1000);
  const start = await kept();
  const firstHalf = await half();
  const middle = await kept();
  const secondHalf = await half();
  clearInterval(timer);
  const end = await kept();
  const rssOfBoth = (k: typeof start) => k.relay.rssMiB + (k.projector?.rssMiB ?? 0);
  const growth = (rssOfBoth(end) - rssOfBoth(middle)) / (PLAN.soakSeconds / 120);
  const keptLine = (name: 'relay' | 'projector') => {
    const [a, b, c] = [start[name], middle[name], end[name]];
    return a && b && c
      ? `${name} RSS ${f(a.rssMiB)} → ${f(b.rssMiB)} → ${f(c.rssMiB)} MiB (live heaps ${f(a.heapMiB)} → ${f(b.heapMiB)} → ${f(c.heapMiB)}, ${c.workers} worker thread${c.workers === 1 ? '' : 's'} among them)`
      : `${name}: none (projections inline)`;
  };
  const [first, last] = [samples[0], samples.at(-1)];
  const parts = `relay ${f(first?.relay ?? 0)} → ${f(last?.relay ?? 0)}${gateway.projectorPid ? `, projector ${f(first?.projector ?? 0)} → ${f(last?.projector ?? 0)}` : ''}`;
  const slope = slopePerMinute(samples.slice(Math.floor(samples.length / 2)));
  row(
    'S5',
    `RSS growth over the second half of a ${f(PLAN.soakSeconds / 60)}-minute soak, after full collections`,
    growth,
    'MiB/min',
    '≤ 1 MiB/min (10-minute soak)',
    growth <= 1 && PLAN.soakSeconds >= 600,
    `${f((firstHalf.rps + secondHalf.rps) / 2)} rps; after full collections at the soak's start, middle and end: ${keptLine('relay')}, ${keptLine('projector')}; RSS sampled under the load ${f(first?.mib ?? 0)} → ${f(last?.mib ?? 0)} MiB (${parts}), its slope over the second half ${f(slope)} MiB/min${PLAN.soakSeconds < 600 ? '; shorter than the 10-minute goal, so not counted as met' : ''}`,
  );
}

function slopePerMinute(samples: ReadonlyArray<{ t: number; mib: number }>): number {
  if (samples.length < 2) return NaN;
  const n = samples.length;
  const mt = samples.reduce((s, p) => s + p.t, 0) / n;
  const mm = samples.reduce((s, p) => s + p.mib, 0) / n;
  let num = 0;
  let den = 0;
  for (const p of samples) {
    num += (p.t - mt) * (p.mib - mm);
    den += (p.t - mt) ** 2;
  }
  return den === 0 ? 0 : (num / den) * 60_000;
}

/**
 * The offline rebuild on both cores (the gateway is stopped, nothing else runs): it reads the log
 * ahead on a thread of its own while the projections apply. Its CPU time says what a single core
 * would give at best.
 */
function rebuild(dataDir: string, metric: string, which: string): void {
  const cpuBefore = endedChildrenCpuMs();
  const out = execFileSync(
    'taskset',
    [
      '-c',
      `${CPU_SERVER},${CPU_LOAD}`,
      process.execPath,
      join(DIST, 'apps/gateway/src/cli.js'),
      'projections:rebuild',
      '--from-scratch', // the replay rate of the whole log, not a read-model checkpoint's restore
    ],
    { env: { ...process.env, DATA_DIR: dataDir }, encoding: 'utf8', timeout: 300_000 },
  );
  const cpuMs = endedChildrenCpuMs() - cpuBefore;
  const m = /Rebuilt from (\d+) events in (\d+) ms/.exec(out);
  if (!m) {
    notes.push(`S7 rebuild printed no summary: ${out.slice(-300)}`);
    return;
  }
  const perSecond = Number(m[1]) / (Number(m[2]) / 1000);
  const perCpuSecond = Number(m[1]) / (cpuMs / 1000);
  row(
    'S7',
    metric,
    perSecond,
    'events/s',
    '≥ 50000',
    perSecond >= 50_000,
    `${which}: ${m[1]} events in ${m[2]} ms on 2 cores, ${f(perCpuSecond)} events per CPU-second ` +
      `(every projection, progress bar on)`,
  );
}

/**
 * The same rebuild of a log spread over 50 users, 100 tokens and 5 channels (receipt-log.ts), as a
 * deployment's would be. In the bench's own log, one user's, the receipts of a second share their
 * usage buckets; here most get buckets of their own, and the second lane is the slower.
 */
async function rebuildManyUsers(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-bench-rebuild-'));
  try {
    const events = SqliteEventStore.open(join(dir, 'events.sqlite'));
    try {
      await seedReceiptLog(events, PLAN.manyUsersReceipts);
    } finally {
      await events.close();
    }
    rebuild(dir, 'rebuild speed, a log of 50 users', '50 users, 100 tokens (receipt-log.ts)');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** 1M users as read-model rows (the gateway stopped): the users projection's own collection spec. */
async function seedUsers(dataDir: string, count: number): Promise<void> {
  const started = Date.now();
  const store = new SqliteReadStore(join(dataDir, 'read.sqlite'), { readers: 1 });
  try {
    await store.declare(usersProjection.collections);
    const words = USERNAME_WORDS;
    const batch = 20_000;
    for (let from = 0; from < count; from += batch) {
      await store.transaction(async (session) => {
        const users = session.collection('users');
        for (let i = from; i < Math.min(count, from + batch); i++) {
          const id = 1_000_000 + i;
          const name = `${words[i % 10]}${words[Math.floor(i / 10) % 10]}${id.toString(36)}`;
          await users.put({
            _id: String(id),
            id,
            username: name,
            username_lower: name.toLowerCase(),
            display_name: `${words[(i * 7) % 10]} ${id}`,
            password_hash: '',
            role: 1,
            status: 1,
            group: i % 5 === 0 ? 'vip' : 'default',
            email: `${name}@example.com`,
            github_id: '',
            wechat_id: '',
            telegram_id: '',
            quota: 500000,
            used_quota: i % 1000,
            request_count: i % 50,
            aff_code: id.toString(36),
            aff_count: 0,
            aff_quota: 0,
            aff_history_quota: 0,
            inviter_id: 0,
            remark: '',
            created_at: 1_700_000_000 + i,
            access_token_hash: '',
            password_changed_at: 0,
            source_position: 0,
            DeletedAt: null,
          });
        }
      });
    }
  } finally {
    await store.close();
  }
  notes.push(
    `S8: ${count} users written as read-model rows (users collection, FTS and counters kept by the store's triggers) in ${f((Date.now() - started) / 1000)} s, the gateway stopped; they are not in the event log.`,
  );
}

/** As many log rows as users, as read-model rows (consumption rows of the seeded users). */
async function seedLogs(dataDir: string, count: number): Promise<void> {
  const started = Date.now();
  const store = new SqliteReadStore(join(dataDir, 'read.sqlite'), { readers: 1 });
  const models = ['gpt-4o-mini', 'gpt-4o', 'gpt-3.5-turbo'];
  try {
    await store.declare(logsProjection.collections);
    const batch = 20_000;
    const now = Math.floor(Date.now() / 1000);
    // What the projection keeps beside the rows: the running consumption totals (log_totals).
    const perUser = new Map<number, number>();
    let all = 0;
    for (let from = 0; from < count; from += batch) {
      await store.transaction(async (session) => {
        const logs = logStore(session);
        for (let i = from; i < Math.min(count, from + batch); i++) {
          const id = 10_000_000 + i;
          const user = 1_000_000 + ((i * 7919) % count);
          const quota = 100 + (i % 900);
          perUser.set(user, (perUser.get(user) ?? 0) + quota);
          all += quota;
          await logs.put({
            id,
            created_at: now - (count - i),
            type: 2,
            user_id: user,
            username: `u${user}`,
            token_name: 'default',
            model_name: models[i % 3]!,
            quota,
            prompt_tokens: 10 + (i % 50),
            completion_tokens: 20 + (i % 80),
            use_time: 1,
            is_stream: i % 2 === 0,
            channel: 1,
            token_id: 0,
            group: 'default',
            request_id: '',
            retry: '',
            ip: '127.0.0.1',
            content: '',
            other: '{"model_ratio":0.075,"group_ratio":1,"completion_ratio":4,"model_price":-1}',
            admin_id: 0,
          });
        }
      });
    }
    const users = [...perUser];
    for (let from = 0; from < users.length; from += batch) {
      await store.transaction(async (session) => {
        const totals = session.collection(LOG_TOTALS);
        for (const [user, quota] of users.slice(from, from + batch)) {
          await totals.put({ _id: userTotalsId(user), quota, source_position: 0 });
        }
      });
    }
    await store
      .collection(LOG_TOTALS)
      .update(ALL_TOTALS, { $inc: { quota: all } }, { upsert: true });
  } finally {
    await store.close();
  }
  notes.push(
    `S8: ${count} consumption log rows written as read-model rows (logs collection, and their running totals in log_totals as the projection keeps them) in ${f((Date.now() - started) / 1000)} s; not in the event log.`,
  );
}

async function consoleReads(gw: Target, gateway: Running): Promise<void> {
  const rate = 1000;
  const alone = await load(gw, {
    body: SLOW_BODY,
    connections: 64,
    seconds: PLAN.consoleSeconds,
    rate,
  });
  // The console reader runs in its own process (console-probe.process.ts), not on this busy loop.
  const reading = runProbe<Record<string, number[]>>(
    CPU_LOAD,
    'console-probe.process.js',
    [gateway.url, String(PLAN.users)],
    PLAN.consoleSeconds,
  );
  const busy = await load(gw, {
    body: SLOW_BODY,
    connections: 64,
    seconds: PLAN.consoleSeconds,
    rate,
  });
  const timings = await reading;
  for (const [kind, list] of Object.entries(timings)) {
    list.sort((a, b) => a - b);
    const p99 = pct(list, 0.99);
    const goal = kind.startsWith('log stat') ? 100 : 50;
    row(
      'S8',
      `${kind} p99 (${PLAN.users} users and log rows)`,
      p99,
      'ms',
      `≤ ${goal} ms`,
      p99 <= goal,
      `${list.length} calls, p50 ${f(pct(list, 0.5))} ms`,
    );
  }
  const delta = busy.p99Ms - alone.p99Ms;
  row(
    'S8',
    'relay p99 change under console reads',
    delta,
    'ms',
    'unchanged (≤ 1 ms, autocannon resolution)',
    delta <= 1,
    `20 ms upstream at ${rate} rps: alone p99 ${alone.p99Ms} ms (${f(alone.rps)} rps), with console reads p99 ${busy.p99Ms} ms (${f(busy.rps)} rps)`,
  );
}

/**
 * Runs one of the probe processes (test/bench/*-probe.process.ts) on the load generator's CPU, for
 * `seconds`, and returns the JSON line it prints.
 */
function row(
  scenario: string,
  metric: string,
  value: number,
  unit: string,
  goal: string,
  met: boolean,
  detail: string,
): void {
  rows.push({ scenario, metric, value, unit, goal, met, detail });
  log(
    `  ${scenario} ${metric}: ${f(value)} ${unit} (${goal}) ${met ? 'MET' : 'NOT MET'} — ${detail}`,
  );
}

function f(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
