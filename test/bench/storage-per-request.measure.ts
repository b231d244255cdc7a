/**
 * `node dist/test/bench/storage-per-request.measure.js [receipts]` (after `npm run bench -- --quick`
 * built it): how many bytes one relayed request costs on the embedded stores: the event log (the
 * receipt's row and its index entries) and the read models every projection builds from it (the
 * log row, counters, hourly data and their indexes). Two logs are built, with and without the
 * receipts, and their difference divided by the receipts is the per-request cost; each table and
 * index is listed (SQLite's dbstat: pages in use, as on disk after a VACUUM).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { SqliteEventStore } from '@tollgate/event-store';
import { rebuildProjections, SqliteReadStore } from '@tollgate/read-store';
import { ALL_PROJECTIONS } from '../../apps/gateway/src/projection-registry';
import { seedReceiptLog } from './receipt-log';

const RECEIPTS = Number(process.argv[2] ?? 20_000);

/** Bytes in use per table and index of a SQLite file, after a VACUUM (no free pages counted). */
function bytesByObject(file: string): Map<string, number> {
  const db = new BetterSqlite3(file);
  try {
    db.exec('VACUUM');
    const rows = db
      .prepare('SELECT name, SUM(pgsize - unused) AS used FROM dbstat GROUP BY name')
      .all() as Array<{ name: string; used: number }>;
    return new Map(rows.map((r) => [r.name, r.used]));
  } finally {
    db.close();
  }
}

/** The event log and read store of a log seeded with `receipts` receipts, as bytes per object. */
async function build(
  dir: string,
  receipts: number,
): Promise<{ events: Map<string, number>; read: Map<string, number> }> {
  const eventsFile = join(dir, `events-${receipts}.sqlite`);
  const readFile = join(dir, `read-${receipts}.sqlite`);
  const events = SqliteEventStore.open(eventsFile);
  const read = new SqliteReadStore(readFile, { readers: 1 });
  try {
    await seedReceiptLog(events, receipts);
    await rebuildProjections(events, read, ALL_PROJECTIONS);
  } finally {
    await read.close();
    await events.close();
  }
  return { events: bytesByObject(eventsFile), read: bytesByObject(readFile) };
}

/** Per-request bytes of each object that grew, largest first, and their sum. */
function perRequest(
  without: Map<string, number>,
  withReceipts: Map<string, number>,
): { total: number; rows: Array<[string, number]> } {
  const rows: Array<[string, number]> = [];
  for (const [name, used] of withReceipts) {
    const grew = (used - (without.get(name) ?? 0)) / RECEIPTS;
    if (grew >= 0.5) rows.push([name, grew]);
  }
  rows.sort((a, b) => b[1] - a[1]);
  return { total: rows.reduce((sum, [, bytes]) => sum + bytes, 0), rows };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-storage-'));
  try {
    const base = await build(dir, 0);
    const full = await build(dir, RECEIPTS);
    console.log(`storage per request (${RECEIPTS} receipts, embedded SQLite stores)`);
    for (const [label, before, after] of [
      ['event log', base.events, full.events],
      ['read models', base.read, full.read],
    ] as const) {
      const { total, rows } = perRequest(before, after);
      console.log(`  ${label}: ${Math.round(total)} bytes per request`);
      for (const [name, bytes] of rows) console.log(`    ${name.padEnd(44)} ${bytes.toFixed(1)}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
