/**
 * `node dist/test/bench/routing-strategy.measure.js [seconds] [connections]` (after `npm run bench
 * -- --quick` built it): what adaptive routing costs the relay's hot path.
 *
 * One gateway pinned to one core, three channels of the JSON model on the mock upstream (the other
 * core), the same closed-loop JSON load (autocannon from here) with `RoutingStrategy` switched
 * between runs: weighted, latency, weighted, latency (interleaved, so a drift of the shared machine
 * falls on both). Printed as requests/s and p99, and latency's ratio to weighted, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, type LoadResult } from './bench-load';
import { sleep, startBenchGateway, startProcess } from './bench-processes';
import { type ApiSession, setUpAccount } from './bench-setup';
import { CHAT_BODY, JSON_MODEL } from './bench-shared';

const SECONDS = Number(process.argv[2] ?? 8);
const CONNECTIONS = Number(process.argv[3] ?? 32);
const DIST = join(__dirname, '../../..', 'dist');
const CPU_SERVER = '0';
const CPU_LOAD = '1';
/** Channels besides the one setUpAccount adds: three share the tier. */
const EXTRA_CHANNELS = 2;
/** Time for an option change to reach the relay's settings (event → projection → cache). */
const OPTION_SETTLE_MS = 500;
const STRATEGIES = ['weighted', 'latency', 'weighted', 'latency'] as const;

async function addChannels(admin: ApiSession, upstreamUrl: string): Promise<void> {
  for (let i = 1; i <= EXTRA_CHANNELS; i++)
    await admin.call('POST', '/api/channel/', {
      type: 1,
      name: `bench-route-${i}`,
      key: `sk-bench-route-${i}-000000000000000000000`,
      base_url: upstreamUrl,
      models: JSON_MODEL,
      group: 'default',
    });
}

async function main(): Promise<void> {
  const upstream = await startProcess({
    name: 'mock upstream',
    script: join(DIST, 'test/bench/mock-upstream.process.js'),
    cpu: CPU_LOAD,
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-routing-'));
  const gateway = await startBenchGateway({ dataDir, cpu: CPU_SERVER });
  try {
    const account = await setUpAccount(gateway.url, upstream.url);
    await addChannels(account.admin, upstream.url);
    const target = { url: gateway.url, headers: { authorization: `Bearer ${account.key}` } };
    await load(target, { body: CHAT_BODY, connections: CONNECTIONS, seconds: 2 });
    const runs: Array<{ strategy: string; result: LoadResult }> = [];
    for (const strategy of STRATEGIES) {
      await account.admin.call('PUT', '/api/option/', { key: 'RoutingStrategy', value: strategy });
      await sleep(OPTION_SETTLE_MS);
      const result = await load(target, {
        body: CHAT_BODY,
        connections: CONNECTIONS,
        seconds: SECONDS,
      });
      runs.push({ strategy, result });
      console.log(
        `${strategy.padEnd(10)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  failed ${result.failed}`,
      );
    }
    const mean = (s: string, f: (r: LoadResult) => number) => {
      const of = runs.filter((r) => r.strategy === s).map((r) => f(r.result));
      return of.reduce((a, b) => a + b, 0) / of.length;
    };
    console.log(
      `relay JSON, 3 channels, ${CONNECTIONS} connections, ${SECONDS} s a run; latency / weighted: ` +
        `throughput ${(mean('latency', (r) => r.rps) / mean('weighted', (r) => r.rps)).toFixed(3)}, ` +
        `p99 ${(mean('latency', (r) => r.p99Ms) / mean('weighted', (r) => r.p99Ms)).toFixed(3)}`,
    );
  } finally {
    await gateway.stop();
    await upstream.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
