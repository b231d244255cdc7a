/**
 * The audit history from the event log, balances at an instant and the ledger check,
 * through the whole gateway (embedded storage), the mock upstream and the openai SDK; the
 * ledger:verify CLI as a child process on the stopped data dir.
 */
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { HistoryItemDto, LedgerReportDto, PageOf, UserQuotaAtDto } from '@tollgate/contracts';
import { createEventStore } from '@tollgate/event-store';
import { createReadStore, rebuildProjections, type ReadStore } from '@tollgate/read-store';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { ALL_PROJECTIONS } from '../../apps/gateway/src/projection-registry';
import { expectFailure, expectSuccess, waitUntil } from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  relaySdk,
  storedReceipts,
} from '../support/relay-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  tempDataDir,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/apps/gateway/src/cli.js');
const NEW_USER_QUOTA = 1_000_000;
/** round((120 + 30 × 4) × 0.075): one gpt-4o-mini call with the mock's usage. */
const CALL_COST = 18;
const FORBIDDEN = '无权进行此操作，权限不足';
const TOKEN_NOT_FOUND = '令牌不存在';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Waits into the next second and returns the (finished) second before it. */
async function instantBetween(): Promise<number> {
  await sleep(1100);
  const at = Math.floor(Date.now() / 1000) - 1;
  await sleep(1000 - (Date.now() % 1000) + 50);
  return at;
}

type Page = PageOf<HistoryItemDto>;
const pageOf = (res: { body: { success: boolean; message: string; data: Page } }): Page => {
  expect({ success: res.body.success, message: res.body.message }).toEqual({
    success: true,
    message: '',
  });
  return res.body.data;
};

describe('history, balance at an instant, ledger integrity', () => {
  const dataDir = tempDataDir();
  let t: TestApp | undefined;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let admin: ConsoleClient;
  let channelId: number;
  const app = () => t!;

  beforeAll(async () => {
    if (!existsSync(CLI))
      execSync('npm run build:server', { cwd: REPO, stdio: 'pipe', timeout: 170_000 });
    upstream = await MockUpstream.start();
    upstream.setDefaults({ usage: { prompt_tokens: 120, completion_tokens: 30 } });
    t = await startTestApp({ dataDir });
    root = await loginRoot(t.url);
    admin = await createAdmin(t.url, root, 'histadmin');
    for (const [key, value] of [
      ['ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075 })],
      ['CompletionRatio', JSON.stringify({ 'gpt-4o-mini': 4 })],
      ['QuotaForNewUser', String(NEW_USER_QUOTA)],
    ])
      expectSuccess(await root.put('/api/option/', { key, value }));
    channelId = await addRelayChannel(root, t.app.get(RoutingTable), {
      type: 1,
      name: 'hist-main',
      key: 'sk-upstream-history',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
  }, 200_000);

  afterAll(async () => {
    await t?.close();
    await upstream.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a user changed by two admins: every change with its actor, before → after, in order; nobody else reads it', async () => {
    const target = await registerAndLogin(app().url, 'histtarget');
    const id = target.userId;
    expectSuccess(await admin.put('/api/user/', { id, group: 'vip' }));
    expectSuccess(await admin.post('/api/user/manage', { id, action: 'disable' }));
    expectSuccess(await root.post('/api/user/manage', { id, action: 'enable' }));
    expectSuccess(await admin.put('/api/user/', { id, quota: NEW_USER_QUOTA + 500 }));
    expectSuccess(await root.post('/api/user/manage', { id, action: 'promote' }));

    const history = pageOf(await root.get(`/api/user/${id}/history?page_size=100`));
    const kinds = history.items.map((i) => i.type);
    // newest first
    expect(kinds.slice(0, 5)).toEqual([
      'UserRoleChanged',
      'QuotaAdjusted',
      'UserStatusChanged',
      'UserStatusChanged',
      'UserGroupChanged',
    ]);
    expect(kinds).toEqual(expect.arrayContaining(['UserRegistered', 'QuotaGranted']));
    expect(history.total).toBe(history.items.length);
    const times = history.items.map((i) => i.time);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const [role, quota, enable, disable, group] = history.items;
    const rootActor = { kind: 'user', id: root.userId, username: 'root', role: 100 };
    const adminActor = { kind: 'user', id: admin.userId, username: 'histadmin', role: 10 };
    expect(role).toMatchObject({
      actor: rootActor,
      changes: [{ field: 'role', before: 1, after: 10 }],
    });
    expect(quota).toMatchObject({
      actor: adminActor,
      changes: [
        { field: 'quota', before: NEW_USER_QUOTA, after: NEW_USER_QUOTA + 500, delta: 500 },
      ],
    });
    expect(enable).toMatchObject({
      actor: rootActor,
      changes: [{ field: 'status', before: 2, after: 1 }],
    });
    expect(disable).toMatchObject({
      actor: adminActor,
      changes: [{ field: 'status', before: 1, after: 2 }],
    });
    expect(group).toMatchObject({
      actor: adminActor,
      entity: { kind: 'user', id },
      changes: [{ field: 'group', before: 'default', after: 'vip' }],
    });
    for (const item of [role, quota, enable, disable, group]) {
      expect(item!.request_id).toMatch(/\S/);
      expect(item!.ip).toMatch(/127\.0\.0\.1/);
    }
    const registered = history.items.find((i) => i.type === 'UserRegistered')!;
    expect(registered.changes).toContainEqual({
      field: 'password',
      before: null,
      after: 'changed',
      secret: true,
    });
    expect(JSON.stringify(history)).not.toContain('argon2');

    // paged: page 2 of size 2 is the 3rd and 4th
    const second = pageOf(await root.get(`/api/user/${id}/history?p=2&page_size=2`));
    expect(second).toMatchObject({ total: history.total, page: 2, page_size: 2 });
    expect(second.items).toEqual(history.items.slice(2, 4));

    // the user's own view: admins by role only, no admin ip
    // (the disable ended the target's sessions: sign in again)
    const again = await new ConsoleClient(app().url).login('histtarget', 'password123');
    const own = pageOf(await again.get('/api/user/self/history?page_size=100'));
    expect(own.items.map((i) => i.type)).toEqual(kinds);
    expect(own.items[0]!.actor).toEqual({ kind: 'user', role: 100 });
    expect(own.items[4]!.actor).toEqual({ kind: 'user', role: 10 });
    expect(own.items[0]!.ip).toBe('');
    expect(JSON.stringify(own)).not.toContain('histadmin');

    // nobody else: another user, and an admin on an admin (same role) are refused
    const other = await registerAndLogin(app().url, 'histother');
    expectFailure(await other.get(`/api/user/${id}/history`), FORBIDDEN);
    expectFailure(await other.get(`/api/user/${id}/quota_at?timestamp=1`), FORBIDDEN);
    expectFailure(await admin.get(`/api/user/${id}/history`), '无权获取同级或更高等级用户的信息');
    expectFailure(await other.get('/api/history?actor_id=1'), FORBIDDEN);
    // bad input: the envelope, nothing else
    expectFailure(await root.get('/api/user/abc/history'), '无效的参数');
    expect((await root.get(`/api/user/${id}/history?page_size=1000`)).body.success).toBe(false);
    expect((await root.get(`/api/user/${id}/quota_at`)).body.success).toBe(false);

    // who did what: the admin's changes in a time range
    const now = Math.floor(Date.now() / 1000);
    const done = pageOf(
      await root.get(
        `/api/history?actor_id=${admin.userId}&start_timestamp=${now - 600}&end_timestamp=${now + 5}&page_size=100`,
      ),
    );
    expect(done.items.every((i) => 'id' in i.actor && i.actor.id === admin.userId)).toBe(true);
    expect(done.items.filter((i) => i.entity.id === id).map((i) => i.type)).toEqual([
      'QuotaAdjusted',
      'UserStatusChanged',
      'UserGroupChanged',
    ]);
    expect(
      pageOf(await root.get(`/api/history?actor_id=${admin.userId}&end_timestamp=1`)).total,
    ).toBe(0);
  });

  it('balance and token quota at three instants equal the hand-computed values', async () => {
    const web = await registerAndLogin(app().url, 'histcaller');
    const { tokenId, key } = await createRelayToken(web, { name: 'hist', remain_quota: 800_000 });
    const sdk = relaySdk(app().url, key);
    const call = () =>
      sdk.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      });
    const receipts = async (n: number) =>
      waitUntil(() => storedReceipts(dataDir, web.userId).length >= n, `${n} receipts`, 10_000);

    const t1 = await instantBetween();
    await call();
    await call();
    await receipts(2);
    const t2 = await instantBetween();
    expectSuccess(await root.put('/api/user/', { id: web.userId, quota: 2_000_000 }));
    expectSuccess(
      await web.put('/api/token/', { id: tokenId, name: 'hist', remain_quota: 500_000 }),
    );
    await call();
    await receipts(3);
    const t3 = await instantBetween();
    await call(); // after t3: never in the answers below
    await receipts(4);
    expect(storedReceipts(dataDir, web.userId).map((r) => r.quota)).toEqual(
      Array(4).fill(CALL_COST),
    );
    await waitUntil(
      async () => (await web.get('/api/user/self')).body.data.request_count === 4,
      'read models',
    );

    const at = async (ts: number) =>
      (await root.get(`/api/user/${web.userId}/quota_at?timestamp=${ts}&page_size=100`)).body
        .data as UserQuotaAtDto;
    const a1 = await at(t1);
    expect(a1).toMatchObject({
      timestamp: t1,
      quota: NEW_USER_QUOTA,
      used_quota: 0,
      request_count: 0,
    });
    expect(a1.changes.items.map((i) => i.type)).toEqual(['QuotaGranted']);
    const a2 = await at(t2);
    expect(a2).toMatchObject({
      quota: NEW_USER_QUOTA - 2 * CALL_COST,
      used_quota: 2 * CALL_COST,
      request_count: 2,
    });
    const a3 = await at(t3);
    // the admin set 2 000 000 when the balance was NEW − 2 calls: delta folded, then one more call
    expect(a3).toMatchObject({
      quota: 2_000_000 - CALL_COST,
      used_quota: 3 * CALL_COST,
      request_count: 3,
    });
    expect(a3.changes.items.map((i) => i.type)).toEqual(['QuotaAdjusted', 'QuotaGranted']);
    expect(a3.changes.items[0]!.changes[0]).toMatchObject({
      before: NEW_USER_QUOTA - 2 * CALL_COST,
      after: 2_000_000,
    });
    // the user's own view of the same instant
    const self = (await web.get(`/api/user/self/quota_at?timestamp=${t3}`)).body
      .data as UserQuotaAtDto;
    expect(self.quota).toBe(a3.quota);
    expect(self.changes.items[0]!.actor).toEqual({ kind: 'user', role: 100 });

    const tokenAt = async (client: ConsoleClient, ts: number) =>
      (await client.get(`/api/token/${tokenId}/quota_at?timestamp=${ts}`)).body.data as Record<
        string,
        unknown
      >;
    expect(await tokenAt(web, t1)).toEqual({
      timestamp: t1,
      existed: true,
      history_begins_at: null,
      remain_quota: 800_000,
      used_quota: 0,
      unlimited_quota: false,
    });
    expect(await tokenAt(web, t2)).toMatchObject({
      remain_quota: 800_000 - 2 * CALL_COST,
      used_quota: 2 * CALL_COST,
    });
    expect(await tokenAt(root, t3)).toMatchObject({
      remain_quota: 500_000 - CALL_COST,
      used_quota: 3 * CALL_COST,
    });
    expect(await tokenAt(web, 1)).toMatchObject({ existed: false });
    // now = the read models
    const nowAt = await at(Math.floor(Date.now() / 1000) + 1);
    const selfNow = (await web.get('/api/user/self')).body.data as {
      quota: number;
      used_quota: number;
    };
    expect({ quota: nowAt.quota, used_quota: nowAt.used_quota }).toEqual({
      quota: selfNow.quota,
      used_quota: selfNow.used_quota,
    });
    // another user never reads this token
    const other = await registerAndLogin(app().url, 'histother2');
    expectFailure(
      await other.get(`/api/token/${tokenId}/quota_at?timestamp=${t1}`),
      TOKEN_NOT_FOUND,
    );
    expectFailure(await other.get(`/api/token/${tokenId}/history`), TOKEN_NOT_FOUND);
  });

  it('token, channel, redemption and option histories: before → after, secrets "changed" only', async () => {
    const owner = await registerAndLogin(app().url, 'histowner');
    const { tokenId, key } = await createRelayToken(owner, { name: 'first', remain_quota: 100 });
    expectSuccess(
      await owner.put('/api/token/', { id: tokenId, name: 'second', remain_quota: 70 }),
    );
    const tokens = pageOf(await owner.get(`/api/token/${tokenId}/history`));
    expect(tokens.items.map((i) => i.type)).toEqual(['TokenUpdated', 'TokenCreated']);
    expect(tokens.items[0]!.changes).toEqual([
      { field: 'name', before: 'first', after: 'second' },
      { field: 'remain_quota', before: 100, after: 70 },
    ]);
    expect(tokens.items[1]!.changes).toContainEqual({
      field: 'key',
      before: null,
      after: 'changed',
      secret: true,
    });
    expect(tokens.items[0]!.actor).toEqual({
      kind: 'user',
      id: owner.userId,
      username: 'histowner',
      role: 1,
    });
    expect(JSON.stringify(tokens)).not.toContain(key);
    expect(pageOf(await admin.get(`/api/token/${tokenId}/history`)).total).toBe(2);

    expectSuccess(await root.put('/api/channel/', { id: channelId, key: 'sk-upstream-rotated' }));
    expectSuccess(await admin.put('/api/channel/', { id: channelId, priority: 5 }));
    const channel = pageOf(await admin.get(`/api/channel/${channelId}/history`));
    expect(channel.items.map((i) => i.type)).toEqual([
      'ChannelUpdated',
      'ChannelUpdated',
      'ChannelCreated',
    ]);
    expect(channel.items[0]).toMatchObject({
      actor: { username: 'histadmin' },
      changes: [{ field: 'priority', before: 0, after: 5 }],
    });
    expect(channel.items[1]!.changes).toEqual([
      { field: 'key', before: null, after: 'changed', secret: true },
    ]);
    expect(JSON.stringify(channel)).not.toMatch(/sk-upstream/);
    expectFailure(await owner.get(`/api/channel/${channelId}/history`), FORBIDDEN);

    expectSuccess(
      await admin.post('/api/redemption/', { name: 'hist-code', quota: 300, count: 1 }),
    );
    const codes = (await admin.get('/api/redemption/?p=1&page_size=10')).body.data.items as Array<{
      id: number;
      key: string;
      name: string;
    }>;
    const code = codes.find((c) => c.name === 'hist-code')!;
    expectSuccess(
      await root.put('/api/redemption/', { id: code.id, name: 'hist-code-2', quota: 400 }),
    );
    const redemption = pageOf(await admin.get(`/api/redemption/${code.id}/history`));
    expect(redemption.items.map((i) => i.type)).toEqual(['RedemptionUpdated', 'RedemptionCreated']);
    expect(redemption.items[0]!.changes).toEqual([
      { field: 'name', before: 'hist-code', after: 'hist-code-2' },
      { field: 'quota', before: 300, after: 400 },
    ]);
    expect(redemption.items[1]!.changes).toContainEqual({
      field: 'key',
      before: null,
      after: 'changed',
      secret: true,
    });
    expect(JSON.stringify(redemption)).not.toContain(code.key);

    expectSuccess(await root.put('/api/option/', { key: 'SMTPToken', value: 'smtp-very-secret' }));
    expectSuccess(await root.put('/api/option/', { key: 'QuotaForNewUser', value: '123' }));
    const options = pageOf(await root.get('/api/option/history?page_size=3'));
    expect(options.items[0]).toMatchObject({
      type: 'OptionChanged',
      actor: { username: 'root' },
      changes: [{ field: 'QuotaForNewUser', before: String(NEW_USER_QUOTA), after: '123' }],
    });
    expect(options.items[1]).toMatchObject({
      type: 'SecretOptionChanged',
      changes: [{ field: 'SMTPToken', before: null, after: 'changed', secret: true }],
    });
    expect(JSON.stringify(options)).not.toContain('smtp-very-secret');
    expectFailure(await admin.get('/api/option/history'), FORBIDDEN);
    // an admin's who-did-what never shows the options (root's)
    const rootDid = pageOf(await admin.get(`/api/history?actor_id=${root.userId}&page_size=100`));
    expect(rootDid.items.some((i) => i.entity.kind === 'option')).toBe(false);
    const rootDidAll = pageOf(await root.get(`/api/history?actor_id=${root.userId}&page_size=100`));
    expect(rootDidAll.items.some((i) => i.entity.kind === 'option')).toBe(true);
  });

  it('ledger: the endpoint and the CLI pass; rebuilt read models are identical; a tampered balance fails naming the user', async () => {
    const report = (await root.get('/api/ledger/verify')).body.data as LedgerReportDto;
    expect(report).toMatchObject({ ok: true, mismatches: [] });
    expect(report.checked.users).toBeGreaterThanOrEqual(6);
    expect(report.checked.channels).toBe(1);
    expect(report.events).toBeGreaterThan(10);
    expectFailure(await admin.get('/api/ledger/verify'), FORBIDDEN);
    await t!.close();
    t = undefined;

    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      SESSION_SECRET: 'e2e-session-secret',
      LOG_LEVEL: 'error',
    };
    const passed = execFileSync(process.execPath, [CLI, 'ledger:verify'], {
      cwd: REPO,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(passed).toContain('100%');
    expect(passed).toContain('Ledger OK');

    // every read model, logs and stats included, rebuilt from the log is identical
    const before = await dumpReadModels(dataDir);
    const eventStore = await createEventStore({ dataDir });
    const readStore = await createReadStore({ dataDir });
    try {
      await rebuildProjections(eventStore, readStore, ALL_PROJECTIONS);
    } finally {
      await eventStore.close();
      await readStore.close();
    }
    const after = await dumpReadModels(dataDir);
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    expect(before['logs']!.length).toBeGreaterThan(0);
    expect(before['audit_index']!.length).toBeGreaterThan(0);
    expect(before['ledger_usage']!.length).toBeGreaterThan(0);
    expect(after).toEqual(before);

    // tamper with one user's balance in read.sqlite while the gateway is stopped
    const db = new Database(join(dataDir, 'read.sqlite'));
    const row = db
      .prepare(`SELECT id, doc FROM users WHERE json_extract(doc, '$.username') = 'histcaller'`)
      .get() as { id: string; doc: string };
    const doc = JSON.parse(row.doc) as { quota: number };
    db.prepare('UPDATE users SET doc = ? WHERE id = ?').run(
      JSON.stringify({ ...doc, quota: doc.quota + 1 }),
      row.id,
    );
    db.close();
    const failed = spawnSync(process.execPath, [CLI, 'ledger:verify'], {
      cwd: REPO,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/MISMATCH user \d+ \(histcaller\) quota in the read model/);
    expect(failed.stdout).not.toContain('Ledger OK');
  });
});

/** Every document of every read model, by collection, in id order. */
async function dumpReadModels(dataDir: string): Promise<Record<string, unknown[]>> {
  const readStore: ReadStore = await createReadStore({ dataDir });
  await readStore.declare(ALL_PROJECTIONS.flatMap((p) => p.collections));
  try {
    const out: Record<string, unknown[]> = {};
    for (const projection of ALL_PROJECTIONS)
      for (const { name } of projection.collections) {
        const docs = await readStore.collection(name).find({});
        out[name] = docs.sort((a, b) => a._id.localeCompare(b._id));
      }
    return out;
  } finally {
    await readStore.close();
  }
}
