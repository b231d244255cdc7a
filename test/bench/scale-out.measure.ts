/**
 * `node dist/test/bench/scale-out.measure.js [seconds] [connections]` (after `npm run bench --
 * --quick` built it): what scale-out mode costs one gateway process on the relay's hot path.
 *
 * The same gateway, pinned to the same core, on a fresh DATA_DIR, under the same closed-loop JSON
 * load (autocannon from here, the mock upstream on the other core):
 * 1. baseline: a single gateway (`SCALE_OUT=off`: the whole balance in memory, no lease);
 * 2. `SCALE_OUT=on`: the same process as the elected projector and scheduler, spending from balance
 *    leases (taken, topped up and renewed through the event log as the load runs) and writing the
 *    projector head; with the default $1 slices, then with 100-unit slices (a lease decision every
 *    few dozen calls). Printed as requests/s and the ratio to the baseline, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { load, type LoadResult } from './bench-load';
import { startBenchGateway, startMockUpstream } from './bench-processes';
import { setUpAccount } from './bench-setup';
import { CHAT_BODY } from './bench-shared';

const SECONDS = Number(process.argv[2] ?? 10);
const CONNECTIONS = Number(process.argv[3] ?? 32);
const CPU_SERVER = '0';
const CPU_LOAD = '1';

/** Lease events the run appended (taken, topped up, renewed, returned). */
function leaseEvents(dataDir: string): number {
  const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true });
  try {
    const row = db
      .prepare("SELECT count(*) AS n FROM events WHERE type LIKE 'BalanceLease%'")
      .get() as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** A fresh gateway with `env`, a warm-up, then the measured run. */
async function run(
  upstreamUrl: string,
  env: Record<string, string>,
): Promise<LoadResult & { leaseEvents: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-bench-scale-'));
  const running = await startBenchGateway({ dataDir, cpu: CPU_SERVER, env });
  try {
    const account = await setUpAccount(running.url, upstreamUrl);
    const target = { url: running.url, headers: { authorization: `Bearer ${account.key}` } };
    await load(target, { body: CHAT_BODY, connections: CONNECTIONS, seconds: 2 });
    const result = await load(target, {
      body: CHAT_BODY,
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    await running.stop();
    return { ...result, leaseEvents: leaseEvents(dataDir) };
  } finally {
    await running.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const upstream = await startMockUpstream(CPU_LOAD);
  try {
    const single = await run(upstream.url, { SCALE_OUT: 'off' });
    const scaled = await run(upstream.url, { SCALE_OUT: 'on' });
    // Slices of 100 quota units (a few calls each): a lease decision every few dozen calls, far
    // busier than the default $1 slice, to show what each decision costs.
    const busy = await run(upstream.url, { SCALE_OUT: 'on', LEASE_SLICE_QUOTA: '100' });
    const line = (name: string, r: LoadResult & { leaseEvents: number }) =>
      `${name.padEnd(30)} ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50Ms} ms  p99 ${r.p99Ms} ms  failed ${r.failed}  lease events ${r.leaseEvents}`;
    console.log(`relay JSON, ${CONNECTIONS} connections, ${SECONDS} s, gateway pinned to one core`);
    console.log(line('single process (baseline)', single));
    console.log(line('scale-out, $1 slices', scaled));
    console.log(line('scale-out, 100-unit slices', busy));
    console.log(
      `ratio to the baseline: ${(scaled.rps / single.rps).toFixed(2)} ($1 slices), ${(busy.rps / single.rps).toFixed(2)} (100-unit slices)`,
    );
  } finally {
    await upstream.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
