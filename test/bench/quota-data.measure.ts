/**
 * `node dist/test/bench/quota-data.measure.js [events] [users] [models]` (after `npm run bench -- --quick`
 * built it): the data dashboard's queries over the hourly rows that N usage receipts spread over 30
 * days produce (quota_data per user × model × hour, quota_data_total per model × hour), store level,
 * through QuotaDataHandler. "before" is the old unfiltered admin view: every user's rows of the range
 * read and summed in JavaScript.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteReadStore } from '@tollgate/read-store';
import {
  QUOTA_DATA,
  QUOTA_DATA_TOTAL,
  type QuotaDataDocument,
} from '../../apps/gateway/src/usage-data/quota-data.document';
import {
  QuotaDataHandler,
  QuotaDataQuery,
} from '../../apps/gateway/src/usage-data/quota-data.handler';
import { quotaDataProjection } from '../../apps/gateway/src/usage-data/quota-data.projection';

const EVENTS = Number(process.argv[2] ?? 1_000_000);
const USERS = Number(process.argv[3] ?? 200);
const MODELS = Number(process.argv[4] ?? 8);
const HOURS = 30 * 24;
const HOUR = 3600;

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; result: T }> {
  let best = Infinity;
  let result!: T;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    result = await fn();
    best = Math.min(best, performance.now() - started);
  }
  return { ms: best, result };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-quota-data-'));
  const store = new SqliteReadStore(join(dir, 'read.sqlite'));
  const now = Math.floor(Date.now() / 1000 / HOUR) * HOUR;
  const first = now - (HOURS - 1) * HOUR;
  try {
    await store.declare(quotaDataProjection.collections);
    // What the projection would hold after EVENTS receipts: summed per user × model × hour.
    let seed = 42;
    const random = () => {
      // mulberry32
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const rows = new Map<string, QuotaDataDocument>();
    const totals = new Map<
      string,
      Omit<QuotaDataDocument, 'user_id' | 'username'> & { _id: string }
    >();
    for (let i = 0; i < EVENTS; i++) {
      const user = 1 + Math.floor(random() * USERS);
      const model = `model-${Math.floor(random() * MODELS)}`;
      const hour = first + Math.floor(random() * HOURS) * HOUR;
      const quota = 1 + Math.floor(random() * 500);
      const key = `${user}:${hour}:${model}`;
      const row = rows.get(key) ?? {
        _id: key,
        user_id: user,
        username: `user${user}`,
        model_name: model,
        created_at: hour,
        count: 0,
        quota: 0,
        token_used: 0,
      };
      row.count += 1;
      row.quota += quota;
      row.token_used += 100;
      rows.set(key, row);
      const totalKey = `${hour}:${model}`;
      const total = totals.get(totalKey) ?? {
        _id: totalKey,
        model_name: model,
        created_at: hour,
        count: 0,
        quota: 0,
        token_used: 0,
      };
      total.count += 1;
      total.quota += quota;
      total.token_used += 100;
      totals.set(totalKey, total);
    }
    const t0 = Date.now();
    const all = [...rows.values()];
    for (let from = 0; from < all.length; from += 20_000) {
      await store.transaction(async (session) => {
        const c = session.collection<QuotaDataDocument>(QUOTA_DATA);
        for (const row of all.slice(from, from + 20_000)) await c.put(row);
      });
    }
    await store.transaction(async (session) => {
      const c = session.collection(QUOTA_DATA_TOTAL);
      for (const total of totals.values()) await c.put(total);
    });
    process.stdout.write(
      `${EVENTS} receipts, ${USERS} users, ${MODELS} models over ${HOURS} h → ${rows.size} quota_data rows, ` +
        `${totals.size} quota_data_total rows, written in ${Date.now() - t0} ms\n`,
    );

    const handler = new QuotaDataHandler(store);
    const range = { start_timestamp: now + HOUR - 30 * 24 * HOUR, end_timestamp: now + HOUR };
    const day = { start_timestamp: now - 24 * HOUR, end_timestamp: now + HOUR };
    const report = async (label: string, fn: () => Promise<unknown[]>) => {
      const { ms, result } = await time(fn);
      process.stdout.write(`${label}: ${result.length} rows in ${ms.toFixed(1)} ms (best of 3)\n`);
    };
    await report('self, 30 days', () =>
      handler.execute(new QuotaDataQuery({ kind: 'self', userId: 7 }, range, now)),
    );
    await report('self, 24 h', () =>
      handler.execute(new QuotaDataQuery({ kind: 'self', userId: 7 }, day, now)),
    );
    await report('admin, username, 30 days', () =>
      handler.execute(new QuotaDataQuery({ kind: 'all' }, { ...range, username: 'user7' }, now)),
    );
    await report('admin, everyone, 30 days (pre-summed)', () =>
      handler.execute(new QuotaDataQuery({ kind: 'all' }, range, now)),
    );
    await report('admin, everyone, 30 days (before: all rows summed in JS)', async () => {
      const found = await store
        .collection<QuotaDataDocument>(QUOTA_DATA)
        .find(
          { created_at: { $gte: range.start_timestamp, $lte: range.end_timestamp } },
          { sort: { created_at: 1 } },
        );
      const sums = new Map<string, number>();
      for (const r of found) {
        const key = `${r.model_name}\u0000${r.created_at}`;
        sums.set(key, (sums.get(key) ?? 0) + r.quota);
      }
      return [...sums.keys()];
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
