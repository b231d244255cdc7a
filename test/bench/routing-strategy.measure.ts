/**
 * `node dist/test/bench/routing-strategy.measure.js [seconds] [connections] [rounds]` (after `npm
 * run bench -- --quick` built it): the routing-strategy comparison of `npm run bench` (S9) on its
 * own, on a fresh gateway pinned to one core with the mock upstream on the other. Printed, never
 * asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startBenchGateway, startMockUpstream } from './bench-processes';
import { setUpAccount } from './bench-setup';
import { addRoutingChannels, compareRoutingStrategies } from './routing-strategies';

const SECONDS = Number(process.argv[2] ?? 8);
const CONNECTIONS = Number(process.argv[3] ?? 32);
const ROUNDS = Number(process.argv[4] ?? 3);
const CPU_SERVER = '0';
const CPU_LOAD = '1';

async function main(): Promise<void> {
  const upstream = await startMockUpstream(CPU_LOAD);
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-routing-'));
  const gateway = await startBenchGateway({ dataDir, cpu: CPU_SERVER });
  try {
    const account = await setUpAccount(gateway.url, upstream.url);
    await addRoutingChannels(account.admin, upstream.url);
    const target = { url: gateway.url, headers: { authorization: `Bearer ${account.key}` } };
    const comparison = await compareRoutingStrategies(
      account.admin,
      target,
      { connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS },
      ({ strategy, result }) =>
        console.log(
          `${strategy.padEnd(10)} ${result.rps.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms} ms  p99 ${result.p99Ms} ms  failed ${result.failed}`,
        ),
    );
    console.log(
      `relay JSON, 3 channels, ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds; ` +
        `latency / weighted: throughput ${comparison.throughputRatio.toFixed(3)}, ` +
        `p99 ${comparison.p99Ratio.toFixed(3)}; weighted's own spread ${comparison.noise.toFixed(3)} ` +
        `(${comparison.withinNoise ? 'within' : 'outside'} noise)`,
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
