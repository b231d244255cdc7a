/**
 * `npm run import -- <source> [--logs <source>]`: the source's log rows as LogImported events, in id
 * order a page at a time. After the import the log pages, the log stat and the dashboard agree
 * with the source's own sums; balances are the imported ones (a log row is history, not a charge);
 * a run killed between two batches resumes with exact counts; a projection rebuild answers the
 * same. Fixtures: the Appendix DDL (test/support/import-fixtures.ts), 10,000+ generated rows.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readStoredEvents } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import {
  bcryptOf,
  key48,
  newApiDatabase,
  oneApiDatabase,
  type TableRow,
} from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { runCli, runImportCli } from '../support/gateway-cli';

jest.setTimeout(300_000);

const runImport = runImportCli;

const DAY = 86_400;
const T0 = 1_735_689_600; // 2025-01-01T00:00:00Z
const MODELS = ['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet'];
const GENERATED = 10_500;

/** The hand-written rows: one of each type and the edge cases of the notes (1.7). */
const EDGE_ROWS: TableRow[] = [
  {
    id: 1,
    user_id: 2,
    created_at: T0,
    type: 1,
    username: 'alice',
    content: '通过兑换码充值 $10',
    quota: 5_000_000,
  },
  {
    id: 2,
    user_id: 2,
    created_at: T0 + 60,
    type: 2,
    username: 'alice',
    token_name: 'cli',
    token_id: 1,
    model_name: 'gpt-4o',
    quota: 1500,
    prompt_tokens: 100,
    completion_tokens: 50,
    use_time: 3,
    is_stream: 1,
    channel_id: 7,
    group: 'vip',
    other: JSON.stringify({
      model_ratio: 1.25,
      group_ratio: 1,
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o-2024-08-06',
      admin_info: { use_channel: [7] },
    }),
  },
  {
    id: 3,
    user_id: 2,
    created_at: T0 + 120,
    type: 3,
    username: 'alice',
    content: '管理员将用户额度从 1 修改为 2',
  },
  {
    id: 4,
    user_id: 2,
    created_at: T0 + 180,
    type: 4,
    username: 'alice',
    content: 'Midjourney 任务失败，补偿 500',
  },
  {
    id: 5,
    user_id: 2,
    created_at: T0 + 240,
    type: 5,
    username: 'alice',
    model_name: 'gpt-4o',
    content: 'upstream error',
  },
  // The user of this row was deleted in the source: the row stays, with its name.
  {
    id: 6,
    user_id: 3,
    created_at: T0 + 300,
    type: 2,
    username: 'bob',
    model_name: 'gpt-4o-mini',
    quota: 700,
    prompt_tokens: 7,
    completion_tokens: 3,
  },
  {
    id: 7,
    user_id: 2,
    created_at: T0 + 360,
    type: 2,
    username: 'alice',
    model_name: 'gpt-4o',
    quota: 30,
    other: '{broken',
  },
];

/** Consumption spread over two users, three models and five days. */
function generatedRows(from: number, count: number): TableRow[] {
  return Array.from({ length: count }, (_, i) => {
    const user = i % 3 === 0 ? 3 : 2;
    return {
      id: from + i,
      user_id: user,
      created_at: T0 + DAY + Math.floor((i * 5 * DAY) / count),
      type: 2,
      username: user === 2 ? 'alice' : 'bob',
      token_name: 'gen',
      model_name: MODELS[i % MODELS.length]!,
      quota: 10 + (i % 97),
      prompt_tokens: i % 13,
      completion_tokens: i % 7,
      use_time: i % 4,
      is_stream: i % 2,
      channel_id: 7,
    };
  });
}

/** root (rootpass1) and alice (alicepass) as both projects store them; `alice` adds her figures. */
async function rootAndAlice(alice: { quota: number; used_quota?: number; request_count?: number }) {
  const user = async (id: number, username: string, password: string, role: number) => ({
    id,
    username,
    password: await bcryptOf(password),
    role,
    status: 1,
  });
  return [
    { ...(await user(1, 'root', 'rootpass1', 100)), quota: 1000, aff_code: 'r00t' },
    { ...(await user(2, 'alice', 'alicepass', 1)), ...alice, aff_code: 'al1c' },
  ];
}

async function newApiSource(dir: string, logs: TableRow[]): Promise<string> {
  return newApiDatabase(dir, {
    users: [
      ...(await rootAndAlice({ quota: 3_000_000, used_quota: 9_999, request_count: 42 })),
      {
        id: 3,
        username: 'bob',
        password: await bcryptOf('bobpass12'),
        role: 1,
        status: 1,
        quota: 5,
        aff_code: 'b0b0',
        deleted_at: '2025-02-01 00:00:00+00:00',
      },
    ],
    tokens: [
      {
        id: 1,
        user_id: 2,
        key: key48('Lg1'),
        name: 'cli',
        remain_quota: 10,
        unlimited_quota: true,
      },
    ],
    logs,
  });
}

/** What the source says: its rows, and the sums new-api's own stat and dashboard would show. */
function sourceFacts(file: string) {
  const db = new Database(file, { readonly: true });
  try {
    const one = <T>(sql: string, ...args: unknown[]) => db.prepare(sql).get(...args) as T;
    return {
      rows: one<{ n: number }>('SELECT COUNT(*) AS n FROM logs').n,
      consumed: one<{ q: number }>('SELECT SUM(quota) AS q FROM logs WHERE type = 2').q,
      aliceRows: one<{ n: number }>('SELECT COUNT(*) AS n FROM logs WHERE user_id = 2').n,
      aliceConsumed: one<{ q: number }>(
        'SELECT SUM(quota) AS q FROM logs WHERE type = 2 AND user_id = 2',
      ).q,
      perModel: db
        .prepare(
          'SELECT model_name AS m, COUNT(*) AS n, SUM(quota) AS q, SUM(prompt_tokens + completion_tokens) AS t FROM logs WHERE type = 2 GROUP BY model_name ORDER BY model_name',
        )
        .all() as Array<{ m: string; n: number; q: number; t: number }>,
    };
  } finally {
    db.close();
  }
}

interface Page {
  items: Array<Record<string, unknown>>;
  total: number;
}

/** Every answer the import must get right, read through the console API. */
async function readBack(url: string, root: GatewaySession, alice: GatewaySession) {
  const get = async (path: string, session: GatewaySession) =>
    (await gatewayApi(url, path, { method: 'GET', ...session })).data;
  const wide = `start_timestamp=0&end_timestamp=${T0 + 30 * DAY}`;
  const page = (await get(`/api/log/?p=1&page_size=100&${wide}`, root)) as Page;
  const dashboard = (await get(`/api/data/?${wide}`, root)) as Array<{
    model_name: string;
    count: number;
    quota: number;
    token_used: number;
  }>;
  const perModel = new Map<string, { n: number; q: number; t: number }>();
  for (const row of dashboard) {
    const sum = perModel.get(row.model_name) ?? { n: 0, q: 0, t: 0 };
    perModel.set(row.model_name, {
      n: sum.n + row.count,
      q: sum.q + row.quota,
      t: sum.t + row.token_used,
    });
  }
  return {
    total: page.total,
    stat: ((await get(`/api/log/stat?${wide}`, root)) as { quota: number }).quota,
    aliceStat: ((await get(`/api/log/stat?username=alice&${wide}`, root)) as { quota: number })
      .quota,
    selfTotal: ((await get(`/api/log/self?p=1&page_size=10&${wide}`, alice)) as Page).total,
    selfStat: ((await get(`/api/log/self/stat?${wide}`, alice)) as { quota: number }).quota,
    edges: (
      (await get(
        `/api/log/?p=1&page_size=100&end_timestamp=${T0 + 400}&start_timestamp=0`,
        root,
      )) as Page
    ).items,
    perModel: [...perModel.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([m, s]) => ({ m, ...s })),
    alice: (await get('/api/user/self', alice)) as { quota: number; used_quota: number },
  };
}

describe('import: logs', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-logs-'));

  it('imports new-api logs: pages, stats and dashboard equal the source; balances untouched; a rebuild answers the same', async () => {
    const file = await newApiSource(mkdtempSync(join(work, 'src-')), [
      ...EDGE_ROWS,
      ...generatedRows(100, GENERATED),
    ]);
    const source = sourceFacts(file);
    const dataDir = mkdtempSync(join(work, 'data-'));

    const dry = runImport(dataDir, [file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(new RegExp(`logs: read ${source.rows}, imported ${source.rows}`));

    const first = runImport(dataDir, [file]);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(
      new RegExp(
        `logs: read ${source.rows}, imported ${source.rows}, already imported 0, skipped 0`,
      ),
    );
    expect(first.out).toMatch(/logs \[#+\] 100% \d+\/\d+ rows, \d+ rows\/s/);
    expect(first.out).toMatch(
      /logs #0 changed type: 1 rows of type 5 \(new-api's error\) imported as type 0/,
    );
    expect(first.out).toMatch(/logs #0 changed other: 1 rows whose `other` is not a JSON object/);
    expect(readStoredEvents(dataDir, { type: 'LogImported' })).toHaveLength(source.rows);

    const again = runImport(dataDir, [file]);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(
      new RegExp(
        `logs: read ${source.rows}, imported 0, already imported ${source.rows}, skipped 0`,
      ),
    );
    expect(readStoredEvents(dataDir, { type: 'LogImported' })).toHaveLength(source.rows);

    const check = async () => {
      const gateway = await startGateway({ dataDir });
      try {
        const root = await gatewayLogin(gateway.url, 'root', 'rootpass1');
        const alice = await gatewayLogin(gateway.url, 'alice', 'alicepass');
        return await readBack(gateway.url, root, alice);
      } finally {
        await gateway.stop();
      }
    };
    const seen = await check();
    expect(seen.total).toBe(source.rows);
    expect(seen.stat).toBe(source.consumed);
    expect(seen.aliceStat).toBe(source.aliceConsumed);
    expect(seen.selfTotal).toBe(source.aliceRows);
    expect(seen.selfStat).toBe(source.aliceConsumed);
    expect(seen.perModel).toEqual(source.perModel);
    // A log row is history: the balances are the imported users' own figures.
    expect(seen.alice).toMatchObject({ quota: 3_000_000, used_quota: 9_999 });

    const byContent = (type: number) => seen.edges.filter((r) => r['type'] === type);
    expect(seen.edges).toHaveLength(EDGE_ROWS.length);
    expect(byContent(1)[0]).toMatchObject({ created_at: T0, quota: 5_000_000, username: 'alice' });
    const consume = seen.edges.find((r) => r['created_at'] === T0 + 60)!;
    expect(consume).toMatchObject({
      type: 2,
      username: 'alice',
      token_name: 'cli',
      model_name: 'gpt-4o',
      quota: 1500,
      prompt_tokens: 100,
      completion_tokens: 50,
      use_time: 3,
      is_stream: true,
      channel: 7,
    });
    expect(JSON.parse(consume['other'] as string)).toMatchObject({
      is_model_mapped: true,
      admin_info: { use_channel: [7] },
    });
    expect(seen.edges.find((r) => r['created_at'] === T0 + 240)).toMatchObject({
      type: 0,
      content: 'upstream error',
    });
    expect(seen.edges.find((r) => r['created_at'] === T0 + 300)).toMatchObject({
      user_id: 3,
      username: 'bob',
      quota: 700,
    });
    expect(seen.edges.find((r) => r['created_at'] === T0 + 360)).toMatchObject({ other: '' });

    // Every read model from the log alone: the same answers.
    const rebuilt = runCli(dataDir, ['projections:rebuild']);
    expect(rebuilt.out).toMatch(/Rebuilt from \d+ events/);
    expect(rebuilt.code).toBe(0);
    expect(await check()).toEqual(seen);
  });

  it('reads a separate one-api logs database (--logs) and resumes a run killed between two batches', async () => {
    const dir = mkdtempSync(join(work, 'src-'));
    const main = oneApiDatabase(dir, {
      users: await rootAndAlice({ quota: 77 }),
    });
    const rows = Array.from({ length: 9_000 }, (_, i) => ({
      id: i + 1,
      user_id: 2,
      created_at: T0 + i,
      type: i % 10 === 0 ? 5 : 2,
      username: 'alice',
      model_name: 'gpt-4o',
      quota: 3,
      request_id: `req-${i}`,
      elapsed_time: 2_600,
      system_prompt_reset: 0,
    }));
    // LOG_SQL_DSN: a database holding only the logs table.
    const logsFile = oneApiDatabase(dir, { logs: rows }, 'logs.db');
    const logsOnly = new Database(logsFile);
    logsOnly.exec(
      'DROP TABLE users; DROP TABLE tokens; DROP TABLE channels; DROP TABLE options; DROP TABLE redemptions; DROP TABLE abilities',
    );
    logsOnly.close();
    const dataDir = mkdtempSync(join(work, 'data-'));

    // Not a logs database, and a logs table of the other project: refused, nothing written.
    const noLogs = newApiDatabase(dir, {}, 'other.db');
    const refusedDir = mkdtempSync(join(work, 'data-'));
    const wrong = runImport(refusedDir, [main, '--logs', noLogs]);
    expect(wrong.code).toBe(2);
    expect(wrong.out).toMatch(/is not one-api's \(it has no elapsed_time column\)/);
    const none = runImport(refusedDir, [main, '--logs', join(dir, 'missing.db')]);
    expect(none.out).toMatch(/Cannot open .*missing\.db as SQLite/);
    expect(none.code).toBe(2);

    const killed = runImport(dataDir, [main, '--logs', logsFile], {
      TOLLGATE_CRASH_AT: 'import:after-log-batch',
    });
    expect(killed.signal).toBe('SIGKILL');
    // Killed as its first append (2,000 rows) landed; the next ones may have been in flight.
    const landed = readStoredEvents(dataDir, { type: 'LogImported' }).length;
    expect(landed % 2000).toBe(0);
    expect(landed).toBeGreaterThanOrEqual(2000);
    expect(landed).toBeLessThan(9000);

    const resumed = runImport(dataDir, [main, '--logs', logsFile]);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(/Logs: .*logs\.db/);
    expect(resumed.out).toMatch(
      new RegExp(
        `logs: read 9000, imported ${9000 - landed}, already imported ${landed}, skipped 0`,
      ),
    );
    const events = readStoredEvents(dataDir, { type: 'LogImported' });
    const ids = events.map((e) => (e.data as { source: { rowId: number } }).source.rowId);
    expect(ids).toEqual(rows.map((r) => r.id));
    expect(events[1]!.data).toMatchObject({ requestId: 'req-1', useTime: 3, type: 2 });

    const gateway = await startGateway({ dataDir });
    try {
      const root = await gatewayLogin(gateway.url, 'root', 'rootpass1');
      const stat = await gatewayApi(gateway.url, '/api/log/stat?start_timestamp=0', {
        method: 'GET',
        ...root,
      });
      expect(stat.data.quota).toBe(rows.filter((r) => r.type === 2).length * 3);
      // Type 0 lists every row (one-api's and new-api's rule); the test rows (5) are among them as
      // 0.
      const all = await gatewayApi(gateway.url, '/api/log/?p=1&page_size=10&start_timestamp=0', {
        method: 'GET',
        ...root,
      });
      expect(all.data.total).toBe(rows.length);
      const consumed = await gatewayApi(
        gateway.url,
        '/api/log/?p=1&page_size=10&type=2&start_timestamp=0',
        { method: 'GET', ...root },
      );
      expect(consumed.data.total).toBe(rows.filter((r) => r.type === 2).length);
    } finally {
      await gateway.stop();
    }
  });
});
