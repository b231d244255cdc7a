/**
 * `npm run import -- mysql://… | postgres://…` end to end against real servers (Debian's
 * mariadb-server and postgresql, started here: libs/testing/src/sql-servers.ts). The same one-api
 * and new-api fixtures are imported from their SQLite file, from MariaDB and from PostgreSQL
 * (copied there under the schema each project's gorm creates, import-fixtures-sql.ts) through the
 * built CLI (`npm run build:server`): the reports agree table by table and item by item, and a
 * gateway started on the MySQL- and on the PostgreSQL-imported DATA_DIR signs the old users in with
 * their old passwords, takes their access tokens (char(32), blank-padded by PostgreSQL), relays the
 * old `sk-` key through the imported channel to the mock upstream and charges it, and holds the
 * source's balances. A wrong password is refused in one line that never shows it; a database of
 * something else is refused as from SQLite.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { Client } from 'pg';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { copyFixture } from '@tollgate/testing/import-fixtures-sql';
import { type SqlServer, startMariaDb, startPostgres } from '@tollgate/testing/sql-servers';
import { type GatewaySession, gatewayApi, gatewayLogin } from '../support/gateway-http';
import {
  bcryptOf,
  key48,
  newApiDatabase,
  type NewApiUserRow,
  oneApiDatabase,
  type OneApiUserRow,
} from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { CLI, runImportCli } from '../support/gateway-cli';

jest.setTimeout(300_000);

const CHANNEL_KEY = 'sk-upstream-from-sql-1';
/** Shorter than char(32): PostgreSQL hands it back blank-padded. */
const ACCESS_TOKEN = 'AbCdEf0123456789AbCdEf012345';

/** `table: read N, imported N, already imported N, skipped N` lines as a map. */
function countsOf(out: string): Record<string, string> {
  const counts: Record<string, string> = {};
  for (const m of out.matchAll(
    /^(\w+): (read \d+, imported \d+, already imported \d+, skipped \d+)$/gm,
  ))
    counts[m[1]!] = m[2]!;
  return counts;
}

/** The report's item lines (`  channels #3 changed type: …`), in order. */
const itemsOf = (out: string): string[] =>
  out.split('\n').filter((line) => /^ {2}\w+ #-?\d+ /.test(line));

const passwordOf = (url: string): string => decodeURIComponent(new URL(url).password);
const withPassword = (url: string, password: string): string => {
  const u = new URL(url);
  u.password = password;
  return u.toString();
};

interface Fixture {
  project: 'one-api' | 'new-api';
  file: string;
  /** The user who relays, their password, token key (48, no sk-) and access token. */
  user: { id: number; username: string; password: string; key: string };
  users: Array<OneApiUserRow | NewApiUserRow>;
}

const channelRow = (upstreamUrl: string) => ({
  id: 1,
  type: 1,
  key: CHANNEL_KEY,
  status: 1,
  name: 'openai-mock',
  weight: 5,
  created_time: 1_700_000_000,
  base_url: upstreamUrl,
  models: 'gpt-4o-mini',
  group: 'default,vip',
  used_quota: 777,
  priority: 10,
  model_mapping: '{"gpt-4":"gpt-4o-mini"}',
});

async function oneApiFixture(dir: string, upstreamUrl: string): Promise<Fixture> {
  const users: OneApiUserRow[] = [
    {
      id: 1,
      username: 'root',
      password: await bcryptOf('rootpass1'),
      role: 100,
      quota: 500000000,
      aff_code: 'r00t',
    },
    {
      id: 2,
      username: 'alice',
      password: await bcryptOf('alicepass'),
      display_name: 'Alice',
      email: 'alice@example.com',
      access_token: ACCESS_TOKEN,
      quota: 3000000,
      used_quota: 1234,
      request_count: 7,
      group: 'vip',
      aff_code: 'al1c',
      inviter_id: 1,
      lark_id: 'lark1',
    },
    { id: 3, username: 'bob', password: await bcryptOf('bobpass12'), status: 2, quota: 42 },
    { id: 4, username: 'deleted_0f0f', status: 3, quota: 10, aff_code: 'g0ne' },
  ];
  const file = oneApiDatabase(dir, {
    users,
    tokens: [
      {
        id: 1,
        user_id: 2,
        key: key48('A1b2C3'),
        name: 'limited',
        created_time: 1700000000,
        remain_quota: 800000,
        used_quota: 200,
        models: 'gpt-4o-mini,gpt-4o',
        subnet: '127.0.0.0/8,bogus',
      },
      { id: 2, user_id: 2, key: key48('D4e5F6'), name: 'unlimited', unlimited_quota: true },
      { id: 3, user_id: 2, key: key48('J0k1L2'), status: 4, name: 'exhausted', used_quota: 9 },
    ],
    channels: [
      channelRow(upstreamUrl),
      { id: 2, type: 36, key: 'sk-deepseek', name: 'deepseek', models: 'deepseek-chat' },
      {
        id: 3,
        type: 33,
        key: '',
        name: 'aws',
        models: 'claude-3-haiku',
        config: '{"region":"us-east-1","ak":"AKIA1","sk":"SK1"}',
      },
      { id: 4, type: 34, key: 'coze', name: 'coze', status: 3 },
    ],
    redemptions: [
      { id: 1, user_id: 1, key: '0123456789abcdef0123456789abcdef', name: 'gift', quota: 1000 },
      {
        id: 2,
        user_id: 1,
        key: 'fedcba9876543210fedcba9876543210',
        status: 3,
        name: 'spent',
        redeemed_time: 1_700_000_500,
      },
    ],
    options: [
      { key: 'SystemName', value: 'From SQL' },
      { key: 'OidcClientId', value: 'client-1' },
      { key: 'Theme', value: 'berry' },
    ],
    logs: [{ id: 1, user_id: 2, created_at: 1_700_000_100, type: 2, quota: 5, is_stream: true }],
  });
  return {
    project: 'one-api',
    file,
    user: { id: 2, username: 'alice', password: 'alicepass', key: key48('A1b2C3') },
    users,
  };
}

async function newApiFixture(dir: string, upstreamUrl: string): Promise<Fixture> {
  const users: NewApiUserRow[] = [
    {
      id: 1,
      username: 'root',
      password: await bcryptOf('rootpass1'),
      role: 100,
      quota: 100000000,
      aff_code: 'x1y2',
      aff_count: 2,
      aff_quota: 50,
      aff_history: 70,
      setting: '{"notify_type":"email"}',
    },
    {
      id: 2,
      username: 'carol',
      password: await bcryptOf('carolpass'),
      access_token: ACCESS_TOKEN,
      quota: 2000000,
      used_quota: 10,
      group: 'vip',
      aff_code: 'c4r0',
      telegram_id: 'tg-carol',
    },
    {
      id: 3,
      username: 'dave',
      password: await bcryptOf('davepass1'),
      quota: 5,
      access_token: null,
      deleted_at: '2025-01-01 00:00:00+00:00',
    },
  ];
  const file = newApiDatabase(dir, {
    users,
    tokens: [
      {
        id: 1,
        user_id: 2,
        key: key48('N3wApi'),
        name: 'main',
        remain_quota: 900000,
        model_limits_enabled: true,
        model_limits: 'gpt-4o-mini',
        allow_ips: '',
        group: '',
      },
      {
        id: 2,
        user_id: 2,
        key: key48('G0ne1'),
        name: 'gone',
        deleted_at: '2025-02-01 10:00:00+00:00',
      },
    ],
    channels: [
      {
        ...channelRow(upstreamUrl),
        tag: 'mock',
        status_code_mapping: '{"429":"500"}',
        auto_ban: 0,
        other_info: '{}',
        setting: '{"force_format":false}',
      },
      { id: 2, type: 42, key: 'mistral-key', name: 'mistral', models: 'mistral-large' },
    ],
    redemptions: [
      { id: 1, key: '11112222333344445555666677778888', name: 'gift', quota: 10 },
      {
        id: 2,
        key: '99990000aaaabbbbccccddddeeeeffff',
        quota: 10,
        deleted_at: '2025-01-01 00:00:00+00:00',
      },
    ],
    options: [
      { key: 'SystemName', value: 'From SQL' },
      { key: 'RegisterEnabled', value: 'maybe' },
    ],
    logs: [{ id: 1, user_id: 2, created_at: 1_700_000_100, type: 2, quota: 5, other: '{}' }],
    tasks: [
      {
        id: 1,
        task_id: 'task-1',
        platform: 'suno',
        user_id: 2,
        status: 'SUCCESS',
        properties: '{"input":""}',
        data: '[{"id":"clip-1"}]',
      },
    ],
    midjourneys: [{ id: 1, user_id: 2, mj_id: 'mj-1', status: 'SUCCESS', buttons: '[]' }],
    top_ups: [{ id: 1, user_id: 2, amount: 10, money: 7.5, trade_no: 't-1', status: 'pending' }],
  });
  return {
    project: 'new-api',
    file,
    user: { id: 2, username: 'carol', password: 'carolpass', key: key48('N3wApi') },
    users,
  };
}

const self = async (url: string, session: GatewaySession) =>
  (await gatewayApi(url, '/api/user/self', { method: 'GET', ...session })).data as {
    id: number;
    quota: number;
    used_quota: number;
  };

/**
 * A gateway on `dataDir`: old passwords and the access token sign in, the source's balances, the
 * old `sk-` key relays to the mock upstream and is charged the consume log's quota.
 */
async function checkGateway(dataDir: string, fixture: Fixture, upstream: MockUpstream) {
  const gateway = await startGateway({ dataDir });
  try {
    const url = gateway.url;
    const root = await gatewayLogin(url, 'root', 'rootpass1');
    const { user } = fixture;
    const session = await gatewayLogin(url, user.username, user.password);
    expect(session.userId).toBe(user.id);
    await expect(gatewayLogin(url, user.username, 'not-the-password')).rejects.toThrow();

    // The access token as the source stored it (PostgreSQL padded it to 32: trimmed on import).
    const byToken = await request(`${url}/api/user/self`, {
      headers: { authorization: ACCESS_TOKEN, 'new-api-user': String(user.id) },
    });
    const tokenBody = (await byToken.body.json()) as { success: boolean; data: { id: number } };
    expect(tokenBody).toMatchObject({ success: true, data: { id: user.id } });

    // Balances: every user the console lists holds the source's quota and used quota.
    const page = (await gatewayApi(url, '/api/user/?p=1&page_size=100', { method: 'GET', ...root }))
      .data as { items: Array<{ id: number; quota: number; used_quota: number }> };
    const listed = new Map(page.items.map((u) => [u.id, u]));
    const active = fixture.users.filter(
      (u) => u.status !== 3 && !('deleted_at' in u && u.deleted_at),
    );
    for (const source of active)
      expect(listed.get(source.id)).toMatchObject({
        quota: source.quota ?? 0,
        used_quota: source.used_quota ?? 0,
      });

    // The old key relays through the imported channel and is charged the log's quota.
    const before = await self(url, session);
    const source = fixture.users.find((u) => u.id === user.id)!;
    expect(before).toMatchObject({ quota: source.quota, used_quota: source.used_quota ?? 0 });
    const consumeLogs = async () =>
      (
        await gatewayApi(url, '/api/log/self/?type=2&p=1&page_size=50', {
          method: 'GET',
          ...session,
        })
      ).data.items as Array<{ id: number; quota: number }>;
    const earlier = new Set((await consumeLogs()).map((l) => l.id));
    const upstreamCalls = upstream.requests.filter((r) => r.key === CHANNEL_KEY).length;
    const res = await request(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer sk-${user.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.text();
    expect(upstream.requests.filter((r) => r.key === CHANNEL_KEY).length).toBe(upstreamCalls + 1);
    let logs: Array<{ id: number; quota: number }> = [];
    for (let i = 0; i < 50 && logs.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      logs = (await consumeLogs()).filter((l) => !earlier.has(l.id));
    }
    expect(logs).toHaveLength(1);
    const charged = logs[0]!.quota;
    expect(charged).toBeGreaterThan(0);
    let after = await self(url, session);
    for (let i = 0; i < 50 && after.used_quota === before.used_quota; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await self(url, session);
    }
    expect(after.used_quota - before.used_quota).toBe(charged);
    expect(before.quota - after.quota).toBe(charged);
  } finally {
    await gateway.stop();
  }
}

describe('import from MySQL (MariaDB) and PostgreSQL servers (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-sql-'));
  let mysql: SqlServer | undefined;
  let postgres: SqlServer | undefined;
  let upstream: MockUpstream | undefined;

  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('run `npm run build:server` first');
    upstream = await MockUpstream.start();
    const [m, p] = await Promise.allSettled([startMariaDb(work), startPostgres(work)]);
    if (m.status === 'fulfilled') mysql = m.value;
    if (p.status === 'fulfilled') postgres = p.value;
    if (m.status === 'rejected') throw m.reason;
    if (p.status === 'rejected') throw p.reason;
  });

  afterAll(async () => {
    await Promise.allSettled([mysql?.stop(), postgres?.stop(), upstream?.close()]);
  });

  for (const project of ['one-api', 'new-api'] as const) {
    it(`imports the same ${project} database from SQLite, MySQL and PostgreSQL alike`, async () => {
      const fixture = await (project === 'one-api' ? oneApiFixture : newApiFixture)(
        mkdtempSync(join(work, 'src-')),
        upstream!.url,
      );
      const db = project.replace('-', '');
      await mysql!.createDatabase(db);
      await postgres!.createDatabase(db);
      const copiedToMysql = await copyFixture(fixture.file, { kind: 'mysql', url: mysql!.url(db) });
      const copiedToPostgres = await copyFixture(fixture.file, {
        kind: 'postgres',
        url: postgres!.url(db),
      });
      expect(copiedToMysql).toEqual(copiedToPostgres);
      expect(copiedToMysql.project).toBe(project);
      expect(copiedToMysql.rows['users']).toBe(fixture.users.length);

      const fromSqlite = runImportCli(mkdtempSync(join(work, 'data-')), [fixture.file]);
      expect(fromSqlite.code).toBe(0);
      const sqliteCounts = countsOf(fromSqlite.out);
      expect(sqliteCounts['users']).toBe(
        `read ${fixture.users.length}, imported ${fixture.users.length}, already imported 0, skipped 0`,
      );
      expect(sqliteCounts['tokens']).toMatch(/^read [1-9]/);
      expect(sqliteCounts['channels']).toMatch(/^read [1-9]/);
      expect(sqliteCounts['redemptions']).toMatch(/^read [1-9]/);
      expect(sqliteCounts['options']).toMatch(/^read [1-9]/);
      const sqliteItems = itemsOf(fromSqlite.out);
      // The project and its version as the schema records it: the same on every engine.
      const detected = /\((?:one|new)-api, [^)]*\)/.exec(fromSqlite.out)?.[0];
      expect(detected).toContain(`(${project}, schema with `);
      expect(sqliteItems.length).toBeGreaterThan(0);

      for (const [kind, server] of [
        ['mysql', mysql!],
        ['postgres', postgres!],
      ] as const) {
        const dataDir = mkdtempSync(join(work, `data-${kind}-`));
        const url = server.url(db);
        const run = runImportCli(dataDir, [url]);
        expect({ kind, code: run.code }).toEqual({ kind, code: 0 });
        expect(run.out).toContain(detected);
        expect(run.out).not.toContain(passwordOf(url));
        expect(run.out).not.toContain(fixture.user.key);
        expect(run.out).not.toContain(CHANNEL_KEY);
        expect({ kind, counts: countsOf(run.out) }).toEqual({ kind, counts: sqliteCounts });
        expect({ kind, items: itemsOf(run.out) }).toEqual({ kind, items: sqliteItems });
        const reports = readdirSync(dataDir).filter((f) => f.startsWith('import-report-'));
        expect(reports).toHaveLength(1);
        const report = readFileSync(join(dataDir, reports[0]!), 'utf8');
        expect(report).toContain('tollgate:***@127.0.0.1');
        expect(report).not.toContain(passwordOf(url));

        const again = runImportCli(dataDir, [url]);
        expect(again.code).toBe(0);
        expect(countsOf(again.out)['users']).toBe(
          `read ${fixture.users.length}, imported 0, already imported ${fixture.users.length}, skipped 0`,
        );

        await checkGateway(dataDir, fixture, upstream!);
      }
    });
  }

  it('refuses a wrong password in one line that never shows it (exit 2)', async () => {
    await mysql!.createDatabase('wrongpw');
    await postgres!.createDatabase('wrongpw');
    for (const [kind, server] of [
      ['mysql', mysql!],
      ['postgres', postgres!],
    ] as const) {
      const good = server.url('wrongpw');
      const wrong = `wrong-${passwordOf(good).slice(0, 8)}-pw`;
      const run = runImportCli(mkdtempSync(join(work, 'data-')), [withPassword(good, wrong)]);
      expect({ kind, code: run.code }).toEqual({ kind, code: 2 });
      const lines = run.out.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^Import refused: Cannot connect to ${kind === 'mysql' ? 'mysql' : 'postgres'}://tollgate:\\*\\*\\*@127\\.0\\.0\\.1:\\d+/wrongpw: .*(Access denied|password authentication failed)`,
        ),
      );
      expect(run.out).not.toContain(wrong);
      expect(run.out).not.toContain(passwordOf(good));
    }
  });

  it('refuses a MySQL or PostgreSQL database that is not one-api/new-api (exit 2)', async () => {
    await mysql!.createDatabase('notes');
    const m = await createConnection(mysql!.url('notes'));
    await m.query('CREATE TABLE notes (id bigint AUTO_INCREMENT PRIMARY KEY, body longtext)');
    await m.query("INSERT INTO notes (body) VALUES ('hello')");
    await m.end();
    await postgres!.createDatabase('notes');
    const p = new Client({ connectionString: postgres!.url('notes') });
    await p.connect();
    await p.query('CREATE TABLE notes (id bigserial PRIMARY KEY, body text)');
    await p.end();

    for (const url of [mysql!.url('notes'), postgres!.url('notes')]) {
      const run = runImportCli(mkdtempSync(join(work, 'data-')), [url]);
      expect(run.code).toBe(2);
      expect(run.out).toMatch(
        /Import refused: (mysql|postgres):\/\/tollgate:\*\*\*@127\.0\.0\.1:\d+\/notes is not a one-api\/new-api database \(missing tables: users, tokens, channels, options\)/,
      );
      expect(run.out).not.toContain(passwordOf(url));
    }
  });
});
