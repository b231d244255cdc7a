/**
 * `npm run import -- <one-api.db>` end to end: fixtures built from the Appendix DDL (one-api and
 * new-api, test/support/import-fixtures.ts), imported through the built CLI (`npm run
 * build:server`), then the gateway started on the same DATA_DIR: old passwords (bcrypt) sign in
 * and are re-hashed, old `sk-` keys relay; a run killed mid-row resumes; a DATA_DIR a gateway
 * started once on (the default root) takes the import, one where someone registered does not.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin } from '../support/gateway-http';
import { bcryptOf, key48, newApiDatabase, oneApiDatabase } from '../support/import-fixtures';
import { startGateway } from '../support/start-gateway';
import { CLI, runImportCli } from '../support/gateway-cli';

jest.setTimeout(180_000);

/** root (rootpass1, 500000000 quota), alice (3000000), a deleted user, Alice again; 4 tokens. */
async function oneApiFixture(dir: string): Promise<string> {
  return oneApiDatabase(dir, {
    users: [
      {
        id: 1,
        username: 'root',
        password: await bcryptOf('rootpass1'),
        display_name: 'Root',
        role: 100,
        status: 1,
        email: '',
        access_token: 'a'.repeat(32),
        quota: 500000000,
        aff_code: 'r00t',
        inviter_id: 0,
      },
      {
        id: 2,
        username: 'alice',
        password: await bcryptOf('alicepass'),
        display_name: 'Alice',
        role: 1,
        status: 1,
        email: 'alice@example.com',
        github_id: '4242',
        lark_id: 'lark1',
        quota: 3000000,
        used_quota: 1234,
        request_count: 7,
        group: 'vip',
        aff_code: 'al1c',
        inviter_id: 1,
      },
      {
        id: 3,
        username: 'deleted_0f0f',
        password: await bcryptOf('gonepass1'),
        display_name: 'Gone',
        status: 3,
        quota: 10,
        aff_code: 'g0ne',
      },
      {
        id: 4,
        username: 'Alice',
        password: await bcryptOf('otherpass'),
        display_name: 'Other',
        aff_code: 'a2c3',
      },
    ],
    tokens: [
      {
        id: 1,
        user_id: 2,
        key: key48('A1b2C3'),
        name: 'main',
        created_time: 1700000000,
        unlimited_quota: true,
        used_quota: 500,
        models: '',
      },
      {
        id: 2,
        user_id: 2,
        key: key48('D4e5F6'),
        name: 'limited',
        created_time: 1700000000,
        remain_quota: 800000,
        used_quota: 200,
        models: 'gpt-4o-mini,gpt-4o',
        subnet: '127.0.0.0/8,bogus',
      },
      {
        id: 3,
        user_id: 2,
        key: key48('G7h8I9'),
        status: 3,
        name: 'expired',
        created_time: 1700000000,
        expired_time: 1700000100,
        remain_quota: 100,
      },
      {
        id: 4,
        user_id: 2,
        key: key48('J0k1L2'),
        status: 4,
        name: 'exhausted',
        created_time: 1700000000,
        used_quota: 900,
      },
    ],
  });
}

/** Quota and used quota of a user, read through the console API as that user. */
async function balanceOf(url: string, username: string, password: string) {
  const session = await gatewayLogin(url, username, password);
  const self = await gatewayApi(url, '/api/user/self', { method: 'GET', ...session });
  return self.data as { id: number; quota: number; used_quota: number };
}

describe('import from one-api / new-api (built CLI)', () => {
  const work = mkdtempSync(join(tmpdir(), 'tollgate-import-'));

  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('run `npm run build:server` first');
  });

  it('refuses a SQLite file that is not a one-api/new-api database (exit 2)', () => {
    const file = join(work, 'other.db');
    const db = new Database(file);
    db.exec('CREATE TABLE notes (id integer primary key, body text)');
    db.close();
    const dataDir = mkdtempSync(join(work, 'data-'));
    const { code, out } = runImportCli(dataDir, [file]);
    expect(code).toBe(2);
    expect(out).toMatch(/not a one-api\/new-api database/);
    const garbage = join(work, 'garbage.db');
    writeFileSync(garbage, 'this is not sqlite at all '.repeat(100));
    expect(runImportCli(dataDir, [garbage]).code).toBe(2);
  });

  it('imports a one-api database: sign-in, rehash, sk- keys relay and are charged', async () => {
    const file = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const dataDir = mkdtempSync(join(work, 'data-'));

    const dry = runImportCli(dataDir, [file, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.out).toMatch(/users: read 4, imported 4/);
    // No event store, read store or report (loadConfig may create the server secret).
    expect(readdirSync(dataDir).filter((f) => f !== '.session-secret')).toEqual([]);

    const first = runImportCli(dataDir, [file]);
    expect(first.out).toMatch(/one-api/);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/users: read 4, imported 4, already imported 0, skipped 0/);
    expect(first.out).toMatch(/tokens: read 4, imported 4, already imported 0, skipped 0/);
    expect(first.out).toMatch(/users #4 changed username: .*Alice_4/);
    expect(first.out).toMatch(/lark_id/);
    expect(first.out).not.toContain(key48('A1b2C3'));
    expect(readdirSync(dataDir).some((f) => f.startsWith('import-report-'))).toBe(true);

    const second = runImportCli(dataDir, [file]);
    expect(second.code).toBe(0);
    expect(second.out).toMatch(/users: read 4, imported 0, already imported 4, skipped 0/);
    expect(second.out).toMatch(/tokens: read 4, imported 0, already imported 4, skipped 0/);

    const upstream = await MockUpstream.start();
    const gateway = await startGateway({ dataDir });
    try {
      const url = gateway.url;
      const root = await gatewayLogin(url, 'root', 'rootpass1');
      const alice = await gatewayLogin(url, 'alice', 'alicepass');
      // Re-hashed at the first sign-in: the same password still works.
      await gatewayLogin(url, 'alice', 'alicepass');
      await expect(gatewayLogin(url, 'deleted_0f0f', 'gonepass1')).rejects.toThrow();
      await gatewayLogin(url, 'Alice_4', 'otherpass');

      const self = await gatewayApi(url, '/api/user/self', { method: 'GET', ...alice });
      expect(self.data).toMatchObject({
        id: 2,
        quota: 3000000,
        used_quota: 1234,
        request_count: 7,
        group: 'vip',
        github_id: '4242',
        aff_code: 'al1c',
        inviter_id: 1,
      });
      // Before the import the source's balance is not known: the history begins at the import.
      const before = await gatewayApi(url, '/api/user/2/quota_at?timestamp=1', {
        method: 'GET',
        ...root,
      });
      expect(before.data).toMatchObject({ quota: null, used_quota: null, request_count: null });
      const begins = before.data.history_begins_at as number;
      expect(Math.abs(begins - Date.now() / 1000)).toBeLessThan(600);
      const since = await gatewayApi(url, `/api/user/2/quota_at?timestamp=${begins + 1}`, {
        method: 'GET',
        ...root,
      });
      expect(since.data).toMatchObject({ history_begins_at: begins, quota: 3000000 });
      const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...alice });
      const byName = Object.fromEntries(
        (tokens.data as Array<{ name: string }>).map((t) => [t.name, t]),
      );
      expect(byName['main']).toMatchObject({ unlimited_quota: true, used_quota: 500, status: 1 });
      expect(byName['limited']).toMatchObject({
        remain_quota: 800000,
        model_limits_enabled: true,
        model_limits: 'gpt-4o-mini,gpt-4o',
        allow_ips: '127.0.0.0/8',
      });
      expect(byName['expired']).toMatchObject({ status: 3 });
      expect(byName['exhausted']).toMatchObject({ status: 4 });

      await gatewayApi(url, '/api/channel/', {
        method: 'POST',
        body: {
          type: 1,
          name: 'mock',
          key: 'sk-up',
          base_url: upstream.url,
          models: 'gpt-4o-mini',
          group: 'default,vip',
        },
        ...root,
      });
      const call = (key: string) =>
        request(`${url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'hi' }],
          }),
        });
      const ok = await call(key48('D4e5F6'));
      expect(ok.statusCode).toBe(200);
      await ok.body.text();
      const refused = await call(key48('J0k1L2'));
      expect(refused.statusCode).toBe(401);
      await refused.body.text();

      let after = self.data as { quota: number; used_quota: number };
      for (let i = 0; i < 50 && after.used_quota === 1234; i++) {
        await new Promise((r) => setTimeout(r, 100));
        after = (await gatewayApi(url, '/api/user/self', { method: 'GET', ...alice })).data;
      }
      expect(after.used_quota).toBeGreaterThan(1234);
      expect(after.quota).toBe(3000000 - (after.used_quota - 1234));
    } finally {
      await gateway.stop();
      await upstream.close();
    }
  });

  it('imports a new-api database and refuses a DATA_DIR holding another source', async () => {
    const file = newApiDatabase(work, {
      users: [
        {
          id: 1,
          username: 'root',
          password: await bcryptOf('rootpass1'),
          role: 100,
          status: 1,
          quota: 100,
          used_quota: 0,
          aff_code: 'x1y2',
          aff_count: 2,
          aff_quota: 50,
          aff_history: 70,
          deleted_at: null,
          telegram_id: 'tg1',
          setting: '{not json',
        },
        {
          id: 2,
          username: 'bob',
          password: await bcryptOf('bobpass12'),
          role: 1,
          status: 1,
          quota: 5,
          aff_code: 'b0b0',
          deleted_at: '2025-01-01 00:00:00+00:00',
        },
      ],
      tokens: [
        {
          id: 1,
          user_id: 1,
          key: key48('Zz9'),
          name: 'na',
          remain_quota: 10,
          model_limits_enabled: true,
          model_limits: 'gpt-4o',
          allow_ips: '1.2.3.4\n5.6.7.8',
          group: 'vip',
        },
      ],
    });
    const dataDir = mkdtempSync(join(work, 'data-'));
    const result = runImportCli(dataDir, [file]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/\(new-api, schema with channels\.tag, /);
    expect(result.out).toMatch(/users: read 2, imported 2/);
    expect(result.out).toMatch(/setting: not valid JSON/);
    const oneApi = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const refused = runImportCli(dataDir, [oneApi]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/another source/);
  });

  it('resumes a run killed between UserImported and BalanceImported: every balance once', async () => {
    const file = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const dataDir = mkdtempSync(join(work, 'data-'));

    const killed = runImportCli(dataDir, [file], { TOLLGATE_CRASH_AT: 'import:after-user' });
    expect(killed.signal).toBe('SIGKILL');
    expect(readStoredEvents(dataDir, { type: 'UserImported' })).toHaveLength(1);
    expect(readStoredEvents(dataDir, { type: 'BalanceImported' })).toHaveLength(0);

    const resumed = runImportCli(dataDir, [file]);
    expect(resumed.code).toBe(0);
    // The killed run's user counts as already imported; its balance is completed now.
    expect(resumed.out).toMatch(/users: read 4, imported 3, already imported 1, skipped 0/);
    expect(resumed.out).toMatch(/tokens: read 4, imported 4, already imported 0, skipped 0/);
    const balances = readStoredEvents(dataDir, { type: 'BalanceImported' });
    expect(balances.map((e) => e.streamId).sort()).toEqual([
      'billing-1',
      'billing-2',
      'billing-3',
      'billing-4',
    ]);
    expect(readStoredEvents(dataDir, { type: 'UserImported' })).toHaveLength(4);

    const again = runImportCli(dataDir, [file]);
    expect(again.out).toMatch(/users: read 4, imported 0, already imported 4, skipped 0/);
    expect(readStoredEvents(dataDir, { type: 'BalanceImported' })).toHaveLength(4);

    const gateway = await startGateway({ dataDir });
    try {
      expect(await balanceOf(gateway.url, 'root', 'rootpass1')).toMatchObject({
        id: 1,
        quota: 500000000,
        used_quota: 0,
      });
      expect(await balanceOf(gateway.url, 'alice', 'alicepass')).toMatchObject({
        quota: 3000000,
        used_quota: 1234,
      });
    } finally {
      await gateway.stop();
    }
  });

  it('imports into a DATA_DIR a gateway started once on: the default root is replaced', async () => {
    const file = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const dataDir = mkdtempSync(join(work, 'data-'));
    const first = await startGateway({ dataDir });
    await first.stop();
    expect(readStoredEvents(dataDir, { streamId: 'user-1' })[0]?.type).toBe('UserRegistered');

    const result = runImportCli(dataDir, [file]);
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/users: read 4, imported 4, already imported 0, skipped 0/);
    expect(result.out).toMatch(/tokens: read 4, imported 4, already imported 0, skipped 0/);

    const gateway = await startGateway({ dataDir });
    try {
      // The source's root password, not the default one.
      await expect(gatewayLogin(gateway.url, 'root', '123456')).rejects.toThrow();
      expect(await balanceOf(gateway.url, 'root', 'rootpass1')).toMatchObject({
        id: 1,
        quota: 500000000,
        used_quota: 0,
      });
      expect(await balanceOf(gateway.url, 'alice', 'alicepass')).toMatchObject({
        id: 2,
        quota: 3000000,
        used_quota: 1234,
      });
    } finally {
      await gateway.stop();
    }
  });

  it('refuses a DATA_DIR where someone registered (exit 2, names DATA_DIR)', async () => {
    const file = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const dataDir = mkdtempSync(join(work, 'data-'));
    const gateway = await startGateway({ dataDir });
    try {
      await gatewayApi(gateway.url, '/api/user/register', {
        method: 'POST',
        body: { username: 'carol', password: 'password123', password2: 'password123' },
      });
    } finally {
      await gateway.stop();
    }
    const refused = runImportCli(dataDir, [file]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/Import refused: .*DATA_DIR/);
    expect(readStoredEvents(dataDir).some((e) => e.metadata['import'] !== undefined)).toBe(false);
  });

  it('refuses a DATA_DIR whose root changed its default password (exit 2)', async () => {
    const file = await oneApiFixture(mkdtempSync(join(work, 'src-')));
    const dataDir = mkdtempSync(join(work, 'data-'));
    const gateway = await startGateway({ dataDir });
    try {
      const root = await gatewayLogin(gateway.url, 'root', '123456');
      await gatewayApi(gateway.url, '/api/user/self', {
        method: 'PUT',
        body: { password: 'changed-pass1', original_password: '123456' },
        ...root,
      });
    } finally {
      await gateway.stop();
    }
    const refused = runImportCli(dataDir, [file]);
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/Import refused: DATA_DIR's root account is in use/);
    expect(readStoredEvents(dataDir).some((e) => e.metadata['import'] !== undefined)).toBe(false);
  });
});
