/**
 * `node dist/test/bench/allocation.measure.js [main.js …]` (build the server and the bench harness
 * first): the garbage the relay process makes per request. For each gateway build given (default:
 * dist/apps/gateway/src/main.js; pass an older build's main.js first for a before/after), starts it
 * (default start, pinned to CPU 0, the mock upstream on CPU 1), sets up root, a channel to the mock,
 * a user and a token through the API, then sends exactly N requests (10,000; env N) of a non-stream
 * and of a stream chat completion at CONCURRENCY (8) and prints, per kind: scavenges per 10k
 * requests and what each kept on average (a finished request kept alive shows here), mark-compacts
 * per 10k, bytes allocated and CPU time per request — counted inside the relay process by
 * allocation-count.preload (see there how). The mock streams its 50 chunks without pause here: the
 * figures are per request, not per second. ALLOC_PROFILE_DIR=<dir> also writes a sampling heap
 * profile per phase (1 = non-stream, 2 = stream) for Chrome DevTools or a script;
 * ALLOC_PROFILE_SURVIVORS=1 keeps in it only what outlived a scavenge.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Pool } from 'undici';
import {
  GATEWAY_MAIN,
  type Running,
  sleep,
  startBenchGateway,
  startMockUpstream,
} from './bench-processes';
import { setUpAccount } from './bench-setup';
import { CHAT_BODY, STREAM_BODY } from './bench-shared';

const N = Number(process.env.N ?? 10_000);
const CONCURRENCY = Number(process.env.CONCURRENCY ?? 8);
/** Before the counted phases: the JIT warm, the pools open, the caches filled. */
const WARM_UP = 1000;
const PER = 10_000;

interface Totals {
  allocatedBytes: number;
  scavenges: number;
  survivedBytes: number;
  markCompacts: number;
  gcPauseUs: number;
  cpuUs: number;
}

/** Asks the preload for its running totals (one more line in the count file). */
async function totals(gateway: Running, countFile: string, seen: number): Promise<Totals> {
  gateway.child.kill('SIGUSR2');
  const deadline = Date.now() + 10_000;
  for (;;) {
    const lines = readFileSync(countFile, 'utf8').split('\n').filter(Boolean);
    if (lines.length > seen) return JSON.parse(lines[seen]!) as Totals;
    if (Date.now() > deadline) throw new Error(`no counts from the gateway:\n${gateway.output()}`);
    await sleep(20);
  }
}

/** Exactly `count` requests over `CONCURRENCY` keep-alive connections, each read to its end. */
async function send(url: string, key: string, body: string, count: number): Promise<void> {
  const pool = new Pool(url, { connections: CONCURRENCY, pipelining: 1 });
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  let next = 0;
  let failed = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const res = await pool.request({
        method: 'POST',
        path: '/v1/chat/completions',
        headers,
        body,
      });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) failed += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    await pool.close();
  }
  if (failed) throw new Error(`${failed} of ${count} requests failed`);
}

function describe(kind: string, before: Totals, after: Totals): string {
  const per10k = (n: number) => ((n * PER) / N).toFixed(1);
  const scavenges = after.scavenges - before.scavenges;
  const kept = scavenges ? (after.survivedBytes - before.survivedBytes) / scavenges / 1024 : 0;
  return (
    `  ${kind.padEnd(10)} scavenges/10k ${per10k(scavenges).padStart(6)}` +
    `  KiB kept/scavenge ${kept.toFixed(0).padStart(5)}` +
    `  mark-compacts/10k ${per10k(after.markCompacts - before.markCompacts).padStart(4)}` +
    `  GC pause/10k ${((after.gcPauseUs - before.gcPauseUs) / 1000 / (N / PER)).toFixed(0).padStart(4)} ms` +
    `  KiB/request ${((after.allocatedBytes - before.allocatedBytes) / N / 1024).toFixed(1).padStart(6)}` +
    `  CPU µs/request ${((after.cpuUs - before.cpuUs) / N).toFixed(0).padStart(5)}\n`
  );
}

async function measureBuild(main: string, upstreamUrl: string): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-alloc-'));
  const countFile = join(dataDir, 'counts.jsonl');
  writeFileSync(countFile, '');
  const profileDir = process.env.ALLOC_PROFILE_DIR;
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const gateway = await startBenchGateway({
    script: main,
    cpu: '0',
    dataDir,
    nodeArgs: ['-r', join(__dirname, 'allocation-count.preload.js')],
    env: {
      ALLOC_COUNT_FILE: countFile,
      ...(profileDir ? { ALLOC_PROFILE_DIR: resolve(profileDir) } : {}),
    },
  });
  try {
    const { key } = await setUpAccount(gateway.url, upstreamUrl);
    await send(gateway.url, key, CHAT_BODY, WARM_UP);
    await send(gateway.url, key, STREAM_BODY, WARM_UP);
    await sleep(500); // the warm-up's receipts settled
    const start = await totals(gateway, countFile, 0);
    await send(gateway.url, key, CHAT_BODY, N);
    await sleep(500);
    const afterChat = await totals(gateway, countFile, 1);
    await send(gateway.url, key, STREAM_BODY, N);
    await sleep(500);
    const afterStream = await totals(gateway, countFile, 2);
    process.stdout.write(
      `${main} (${N} requests a kind, concurrency ${CONCURRENCY}):\n` +
        describe('non-stream', start, afterChat) +
        describe('stream', afterChat, afterStream),
    );
  } finally {
    await gateway.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const builds = process.argv.slice(2);
  if (builds.length === 0) builds.push(GATEWAY_MAIN);
  const upstream = await startMockUpstream('1', { CHUNK_INTERVAL_MS: '0' });
  try {
    for (const build of builds) await measureBuild(resolve(build), upstream.url);
  } finally {
    await upstream.stop();
  }
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
