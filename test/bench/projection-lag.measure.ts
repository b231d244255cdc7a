/**
 * `node dist/test/bench/projection-lag.measure.js [rate] [seconds] [rounds]`: S6 and S7's projection
 * lag alone, as `npm run bench` measures them (a fixed-rate chat load, 1 800 rps by default, with
 * the durability probe in its own process), for gateway variants in alternating rounds. Each
 * variant is a set of environment variables: `VARIANTS='base:;fast:PROJECTION_PACING_MS=5'`
 * (`name:KEY=value,KEY=value`, `;` between variants; one variant `default` if unset); a name
 * ending in `@<checkout>` runs that checkout's build instead of this one's. Each round
 * starts each variant on a fresh data directory, pinned to CPU 0 (its projector child on every
 * core), and prints the durable percentiles (every receipt, from the gateway's histogram, and
 * the probe's), the lag percentiles and the CPU per request of both processes.
 * Nothing is asserted.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pct } from './bench-load';
import { startMockUpstream } from './bench-processes';
import { durabilityAndLag } from './durability-lag';
import { cpuMsOf } from './projector-child';
import { withWarmGateway } from './warm-gateway';

const RATE = Number(process.argv[2] ?? 1800);
const SECONDS = Number(process.argv[3] ?? 12);
const ROUNDS = Number(process.argv[4] ?? 2);

interface Variant {
  readonly name: string;
  readonly env: Record<string, string>;
  /** Another build's `main.js`; this checkout's when absent. */
  readonly script?: string;
}

function variants(text: string | undefined): Variant[] {
  if (!text) return [{ name: 'default', env: {} }];
  return text.split(';').map((part) => {
    const [label = '', settings = ''] = part.split(':');
    const env: Record<string, string> = {};
    for (const pair of settings.split(',').filter(Boolean)) {
      const eq = pair.indexOf('=');
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
    const [name = '', checkout] = label.split('@');
    return checkout
      ? { name, env, script: join(checkout, 'dist/apps/gateway/src/main.js') }
      : { name, env };
  });
}

async function measure(variant: Variant, upstreamUrl: string): Promise<string> {
  const { name, env, script } = variant;
  const start = { name, env, upstreamUrl, ...(script ? { script } : {}) };
  return withWarmGateway(start, async ({ relayPid, projectorPid, account, target, dataDir }) => {
    const relay0 = cpuMsOf(relayPid);
    const projector0 = cpuMsOf(projectorPid);
    const run = await durabilityAndLag({
      gw: target,
      probeKey: account.probeKey,
      probeTokenId: account.probeTokenId,
      dataDir,
      rate: RATE,
      seconds: SECONDS,
      probeCpu: '1',
    });
    const per = (ms: number) => Math.round((ms * 1000) / Math.max(1, run.load.ok));
    const f = (ms: number) => ms.toFixed(1);
    return [
      `${Math.round(run.load.rps)} rps`,
      `${run.receipts.receipts} receipts durable p50 ${f(run.receipts.p50Ms)} p99 ${f(run.receipts.p99Ms)} ms (${f(run.receipts.withinShare * 100)} % within 10 ms)`,
      `probe durable p50 ${f(pct(run.durable, 0.5))} p99 ${f(pct(run.durable, 0.99))} ms`,
      `lag p50 ${f(pct(run.lag, 0.5))} p99 ${f(pct(run.lag, 0.99))} ms (${run.lag.length} probes, ${run.missing} missing)`,
      `CPU per request relay ${per(cpuMsOf(relayPid) - relay0)} + projector ${per(cpuMsOf(projectorPid) - projector0)} µs`,
      run.busy,
    ].join('; ');
  });
}

async function main(): Promise<void> {
  spawnSync('taskset', ['-p', '-c', '1', String(process.pid)], { stdio: 'ignore' });
  const upstream = await startMockUpstream();
  try {
    for (let round = 1; round <= ROUNDS; round++)
      for (const variant of variants(process.env['VARIANTS']))
        process.stdout.write(
          `round ${round} ${variant.name}: ${await measure(variant, upstream.url)}\n`,
        );
  } finally {
    await upstream.stop();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exit(1);
});
