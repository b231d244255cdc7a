/**
 * Retention through the whole app (docs/retention.md): 20,000 relayed calls laid over two simulated
 * days (the usage appender's clock), then day one compacted with `ReceiptRetentionDays` 1. Balances,
 * token quotas, the dashboard's totals and the ledger check are unchanged; the live event store is
 * smaller by at least the removed receipts; the archive verifies and fails on one changed byte; a
 * pass that died after the summaries leaves the totals whole across a restart and resumes; the read
 * models rebuilt after compaction (from a read-model checkpoint) equal the live ones.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { EVENT_STORE } from '../../apps/gateway/src/infrastructure/injection-tokens';
import { verifyArchive } from '../../apps/gateway/src/history/verify-archive';
import { summarizeUsageStream } from '../../apps/gateway/src/retention/compaction-pass';
import { RetentionService } from '../../apps/gateway/src/retention/retention.service';
import { UsageAppender } from '../../apps/gateway/src/usage/usage-appender';
import type { EventStore } from '@tollgate/event-store';
import { waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken } from '../support/relay-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(600_000);

const REPO = join(__dirname, '../..');
const CLI = join(REPO, 'dist/apps/gateway/src/cli.js');
const MODEL = 'retention-model';
const HOUR = 3_600_000;
const DAY_ONE = Date.UTC(2026, 10, 1);
const DAY_TWO = DAY_ONE + 24 * HOUR;
/** Hours of traffic a day, and calls an hour: 2 days × 4 hours × 2,500 = 20,000 calls. */
const HOURS = 4;
const CALLS_AN_HOUR = 2_500;
const TOTAL_CALLS = 2 * HOURS * CALLS_AN_HOUR;
const CONCURRENCY = 32;
const NEW_USER_QUOTA = 1_000_000_000;
const PASSWORD = 'password123';

interface Totals {
  users: Array<{ quota: number; used_quota: number; request_count: number }>;
  tokens: Array<{ remain_quota: number; used_quota: number }>;
  dashboard: { count: number; quota: number };
}

describe('retention: receipts folded into hourly sums, archived and removed', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  const callers: Array<{ name: string; web: ConsoleClient; keys: string[] }> = [];

  // Read-model checkpoints every 5,000 events: the rebuild after compaction starts from one.
  const env = { SESSION_SECRET: 'e2e-session-secret', READ_CHECKPOINT_EVERY: '5000' };
  const store = () => t.app.get<EventStore>(EVENT_STORE);

  async function relayHour(hourStart: number): Promise<void> {
    t.app.get(UsageAppender).clock = () => new Date(hourStart + HOUR / 2);
    const keys = callers.flatMap((c) => c.keys);
    let next = 0;
    const worker = async () => {
      while (next < CALLS_AN_HOUR) {
        const key = keys[next++ % keys.length];
        const res = await request(`${t.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
        });
        await res.body.text();
        expect(res.statusCode).toBe(200);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // Every receipt of this hour written before the clock moves on.
    await t.app.get(UsageAppender).drained();
  }

  async function totals(): Promise<Totals> {
    const users = [];
    const tokens = [];
    for (const { web } of callers) {
      const user = (await root.get(`/api/user/${web.userId}`)).body.data;
      users.push({
        quota: user.quota,
        used_quota: user.used_quota,
        request_count: user.request_count,
      });
      const own = (await web.get('/api/token/?p=0&size=10')).body.data as Totals['tokens'];
      tokens.push(
        ...own
          .map(({ remain_quota, used_quota }) => ({ remain_quota, used_quota }))
          .sort((a, b) => a.used_quota - b.used_quota),
      );
    }
    const from = Math.floor((DAY_ONE - HOUR) / 1000);
    const to = Math.floor((DAY_TWO + 24 * HOUR) / 1000);
    const rows = (await root.get(`/api/data/?start_timestamp=${from}&end_timestamp=${to}`)).body
      .data as Array<{ count: number; quota: number }>;
    const dashboard = rows.reduce(
      (sum, row) => ({ count: sum.count + row.count, quota: sum.quota + row.quota }),
      { count: 0, quota: 0 },
    );
    return { users, tokens, dashboard };
  }

  const settled = async (expectedCalls: number) =>
    waitUntil(
      async () =>
        (await totals()).users.reduce((sum, u) => sum + u.request_count, 0) === expectedCalls,
      'every receipt counted',
      60_000,
    );

  async function ledgerOk() {
    const report = (await root.get('/api/ledger/verify')).body.data as {
      ok: boolean;
      mismatches: unknown[];
    };
    expect(report).toMatchObject({ ok: true, mismatches: [] });
  }

  const receiptCount = () => {
    const db = new Database(join(t.dataDir, 'events.sqlite'), { readonly: true });
    try {
      return (
        db.prepare(`SELECT count(*) AS n FROM events WHERE type = 'RequestRelayed'`).get() as {
          n: number;
        }
      ).n;
    } finally {
      db.close();
    }
  };

  /** The file's used pages in bytes, and the stored bytes of the rows of the given streams. */
  const storeBytes = (streams: readonly string[] = []) => {
    const db = new Database(join(t.dataDir, 'events.sqlite'), { readonly: true });
    try {
      const pages = db.pragma('page_count', { simple: true }) as number;
      const size = db.pragma('page_size', { simple: true }) as number;
      const rows = streams.length
        ? (
            db
              .prepare(
                `SELECT sum(length(CAST(data AS BLOB)) + length(CAST(metadata AS BLOB))) AS bytes
                 FROM events WHERE stream_id IN (${streams.map(() => '?').join(',')})`,
              )
              .get(...streams) as { bytes: number }
          ).bytes
        : 0;
      return { file: pages * size, rows };
    } finally {
      db.close();
    }
  };

  const dayOneStreams = async () =>
    (await store().listStreams({ prefix: 'usage-' })).filter((id) =>
      Array.from({ length: HOURS }, (_, h) =>
        new Date(DAY_ONE + h * HOUR).toISOString().slice(0, 13).replace(/[-T]/g, ''),
      ).some((hour) => id.endsWith(`-${hour}`)),
    );

  /** The gateway started again on the same DATA_DIR (after `stopped`, if given), all signed in. */
  async function restart(stopped: () => void = () => {}): Promise<void> {
    await t.close();
    stopped();
    t = await startTestApp({ dataDir: t.dataDir, env });
    root = await loginRoot(t.url);
    for (const caller of callers)
      caller.web = await new ConsoleClient(t.url).login(caller.name, PASSWORD);
  }

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp({ env });
    root = await loginRoot(t.url);
    const routing = t.app.get(RoutingTable);
    await root.put('/api/option/', { key: 'ModelRatio', value: JSON.stringify({ [MODEL]: 1 }) });
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: String(NEW_USER_QUOTA) });
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'retention',
      key: 'sk-retention',
      models: MODEL,
      base_url: upstream.url,
      group: 'default',
    });
    for (const name of ['retain1', 'retain2']) {
      const web = await registerAndLogin(t.url, name, PASSWORD);
      const limited = await createRelayToken(web, { name: 'limited', remain_quota: 50_000_000 });
      const unlimited = await createRelayToken(web, { name: 'open', unlimited_quota: true });
      callers.push({ name, web, keys: [limited.key, unlimited.key] });
    }
    for (const day of [DAY_ONE, DAY_TWO])
      for (let h = 0; h < HOURS; h++) await relayHour(day + h * HOUR);
    await settled(TOTAL_CALLS);
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    if (t) rmSync(t.dataDir, { recursive: true, force: true });
  });

  it('compacts day one with every total unchanged, and the store smaller', async () => {
    const before = await totals();
    expect(before.dashboard.count).toBe(TOTAL_CALLS);
    await ledgerOk();
    expect(receiptCount()).toBe(TOTAL_CALLS);
    const streams = await dayOneStreams();
    expect(streams.length).toBeGreaterThanOrEqual(HOURS);
    const stored = storeBytes(streams);

    // A pass that died right after the summaries: a restart counts nothing twice.
    for (const source of streams)
      await summarizeUsageStream({ store: store(), now: Date.now }, source);
    await restart();
    await settled(TOTAL_CALLS);
    expect(await totals()).toEqual(before);
    await ledgerOk();

    await root.put('/api/option/', { key: 'ReceiptRetentionDays', value: '1' });
    const retention = t.app.get(RetentionService);
    retention.now = () => DAY_TWO + (HOURS + 1) * HOUR;
    await waitUntil(
      async () => (await retention.runOnce()).length > 0 || (await dayOneStreams()).length === 0,
      'the option seen by the pass',
      10_000,
    );
    expect(await dayOneStreams()).toEqual([]);
    expect(receiptCount()).toBe(TOTAL_CALLS / 2);
    // Nothing left to do: a second pass compacts nothing.
    expect(await retention.runOnce()).toEqual([]);

    await waitUntil(
      async () => JSON.stringify(await totals()) === JSON.stringify(before),
      'the totals after compaction',
      30_000,
    );
    await ledgerOk();
    const after = storeBytes();
    expect(stored.file - after.file).toBeGreaterThanOrEqual(stored.rows);
    // The consumption log keeps day two only and says where it starts.
    const logs = (await root.get('/api/log/?type=2&p=1&page_size=1')).body.data;
    expect(logs.total).toBe(TOTAL_CALLS / 2);
    expect(logs.retained_from).toBe((DAY_ONE + HOURS * HOUR) / 1000);
  });

  it('verifies the archive, and fails on one changed byte', async () => {
    const folder = join(t.dataDir, 'archive');
    expect(await verifyArchive(store(), folder)).toMatchObject({ ok: true });
    const [segment] = readdirSync(folder).filter((name) => name.endsWith('.jsonl.gz'));
    const file = join(folder, segment!);
    copyFileSync(file, `${file}.orig`);
    const bytes = readFileSync(file);
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    writeFileSync(file, bytes);
    const tampered = await verifyArchive(store(), folder);
    expect(tampered.ok).toBe(false);
    expect(tampered.failures.map((f) => f.problem)).toContain('sha256');
    copyFileSync(`${file}.orig`, file);
    expect(await verifyArchive(store(), folder)).toMatchObject({ ok: true });
  });

  it('rebuilds the same read models after compaction', async () => {
    const live = await totals();
    const cli = (...args: string[]) =>
      execFileSync(process.execPath, [CLI, ...args], {
        cwd: REPO,
        env: { ...process.env, DATA_DIR: t.dataDir, ...env, LOG_LEVEL: 'error' },
        encoding: 'utf8',
      });
    let rebuilt = '';
    let verified = '';
    await restart(() => {
      rebuilt = cli('projections:rebuild');
      verified = cli('ledger:verify', '--archive');
    });
    expect(rebuilt).toMatch(/Rebuilding from checkpoint at position/);
    expect(verified).toMatch(/OK/);
    expect(await totals()).toEqual(live);
    const logs = (await root.get('/api/log/?type=2&p=1&page_size=1')).body.data;
    expect(logs.total).toBe(TOTAL_CALLS / 2);

    // From scratch, day one's totals can only come from its summaries.
    let scratch = '';
    await restart(() => {
      scratch = cli('projections:rebuild', '--from-scratch');
    });
    expect(scratch).toMatch(/Rebuilding from scratch/);
    expect(await totals()).toEqual(live);
    await ledgerOk();

    // A start without the read-model database catches up from the newest checkpoint.
    await restart(() => rmSync(join(t.dataDir, 'read.sqlite')));
    await settled(TOTAL_CALLS);
    expect(await totals()).toEqual(live);
  });
});
