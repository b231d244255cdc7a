import { execFileSync, execSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import request from 'supertest';
import { createEventStore } from '@tollgate/event-store';
import { createReadStore, rebuildProjections } from '@tollgate/read-store';
import { LANE_STORE_FILE } from '../../apps/gateway/src/rebuild-lane';
import { ALL_PROJECTIONS } from '../../apps/gateway/src/projection-registry';
import {
  expectFailure,
  expectSuccess,
  readStoredEvents,
  sessionCookieOf,
} from '../support/e2e-helpers';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  tempDataDir,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

const REPO = resolve(__dirname, '../..');
const CLI = join(REPO, 'dist/apps/gateway/src/cli.js');
const SESSION_SECRET = 'e2e-session-secret'; // what startTestApp configures

/** Everything an operator sees of users and options, read through the API. */
async function snapshot(url: string) {
  const root = await loginRoot(url);
  const list = (await root.get('/api/user/?p=1&page_size=100')).body as {
    data: { items: Array<{ id: number }> };
  };
  const docs: Record<number, unknown> = {};
  for (const { id } of list.data.items) docs[id] = (await root.get(`/api/user/${id}`)).body;
  const search = (await root.get('/api/user/search?keyword=keep&page_size=100')).body as unknown;
  const options = (await root.get('/api/option/')).body as unknown;
  const { start_time: _startTime, ...status } = (await request(url).get('/api/status')).body
    .data as Record<string, unknown>;
  return { list, docs, search, options, status };
}

describe('persistence: restarts and rebuilt read models', () => {
  const dataDir = tempDataDir();
  let t: TestApp | undefined;
  /** A session and the user it belongs to, issued before any restart. */
  let carried: { cookie: string; id: number };

  const start = async () => {
    t = await startTestApp({ dataDir });
    return t;
  };
  const stop = async () => {
    await t?.close();
    t = undefined;
  };
  const app = () => {
    if (!t) throw new Error('app not running');
    return t;
  };

  beforeAll(() => {
    // The CLI runs from dist: `npm test` builds it first; a lone run of this file builds it here.
    if (!existsSync(CLI))
      execSync('npm run build:server', { cwd: REPO, stdio: 'pipe', timeout: 170_000 });
  }, 180_000);
  afterAll(async () => {
    await stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('bootstraps root exactly once, whatever the number of restarts', async () => {
    for (let run = 1; run <= 3; run += 1) {
      await start();
      expect(
        (
          await request(app().url)
            .post('/api/user/login')
            .send({ username: 'root', password: '123456' })
        ).body.data,
      ).toMatchObject({
        id: 1,
        username: 'root',
        role: 100,
      });
      const seq = readStoredEvents(dataDir, { streamId: 'seq-user' });
      expect(seq).toHaveLength(1);
      const registered = readStoredEvents(dataDir, { type: 'UserRegistered' });
      expect(registered.map((e) => [e.streamId, e.data['username'], e.data['role']])).toEqual([
        ['user-1', 'root', 100],
      ]);
      expect(registered[0]!.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });
      expect(readStoredEvents(dataDir, { streamId: 'username-root' })).toHaveLength(1);
      const root = await loginRoot(app().url);
      expect((await root.get('/api/user/')).body.data).toMatchObject({
        total: 1,
        items: [{ id: 1, username: 'root', role: 100 }],
      });
      await stop();
    }
  });

  it('a restart keeps users, their state, options and secrets; old sessions stay valid', async () => {
    const { url } = await start();
    const root = await loginRoot(url);
    for (const [key, value] of [
      ['QuotaForNewUser', '777'],
      ['QuotaForInviter', '1000'],
      ['SystemName', 'Persistent Gateway'],
      ['ModelRatio', '{"gpt-4o": 3}'],
      ['ServerAddress', 'https://gw.example.com/'],
      ['SMTPToken', 'persisted-smtp-secret'],
      ['GitHubClientId', 'gh-id'],
      ['GitHubClientSecret', 'gh-secret'],
      ['GitHubOAuthEnabled', 'true'],
      ['Notice', 'kept notice'],
    ])
      expectSuccess(await root.put('/api/option/', { key, value }));

    const inviter = await registerAndLogin(url, 'keep-inviter');
    const aff = (await inviter.get('/api/user/aff')).body.data as string;
    const invitee = await registerAndLogin(url, 'keep-invitee', 'password123', { aff_code: aff });
    expectSuccess(
      await invitee.put('/api/user/self', {
        password: 'changed123',
        original_password: 'password123',
        display_name: 'Invitee',
      }),
    );
    const admin = await createAdmin(url, root, 'keep-admin');
    expectSuccess(
      await root.post('/api/user/', { username: 'keep-banned', password: 'password123' }),
    );
    const banned = await new ConsoleClient(url).login('keep-banned', 'password123');
    expect(
      (await root.post('/api/user/manage', { id: banned.userId, action: 'disable' })).body.data,
    ).toEqual({ role: 1, status: 2 });
    const gone = await registerAndLogin(url, 'keep-gone');
    expectSuccess(await root.post('/api/user/manage', { id: gone.userId, action: 'delete' }));
    const renamed = await registerAndLogin(url, 'keep-old-name');
    expectSuccess(
      await root.put('/api/user/', {
        id: renamed.userId,
        username: 'keep-new-name',
        group: 'vip',
        quota: 4242,
      }),
    );

    const login = await request(url)
      .post('/api/user/login')
      .send({ username: 'keep-inviter', password: 'password123' });
    carried = { cookie: sessionCookieOf(login), id: login.body.data.id as number };
    const before = await snapshot(url);
    expect(Object.keys(before.docs)).toHaveLength(7);
    const eventCount = readStoredEvents(dataDir).length;
    await stop();

    const again = await start();
    expect(await snapshot(again.url)).toEqual(before);
    expect(readStoredEvents(dataDir)).toHaveLength(eventCount); // a restart appends nothing
    const self = await request(again.url)
      .get('/api/user/self')
      .set('Cookie', carried.cookie)
      .set('New-Api-User', String(carried.id));
    expect(self.body.data).toMatchObject({
      username: 'keep-inviter',
      quota: 777,
      aff_count: 1,
      aff_quota: 1000,
    });

    const login2 = (username: string, password = 'password123') =>
      request(again.url).post('/api/user/login').send({ username, password });
    expect((await login2('keep-invitee', 'changed123')).body.data).toMatchObject({
      display_name: 'Invitee',
    });
    expectFailure(await login2('keep-invitee'), '用户名或密码错误，或用户已被封禁');
    expect((await login2('keep-admin')).body.data).toMatchObject({ id: admin.userId, role: 10 });
    expectFailure(await login2('keep-banned'), '用户名或密码错误，或用户已被封禁');
    expectFailure(await login2('keep-gone'), '用户名或密码错误，或用户已被封禁');
    expect((await login2('keep-new-name')).body.data).toMatchObject({
      id: renamed.userId,
      group: 'vip',
    });
    const root2 = await loginRoot(again.url);
    expect((await root2.get(`/api/user/${renamed.userId}`)).body.data).toMatchObject({
      quota: 4242,
      username: 'keep-new-name',
    });
    // The secret survived as events: the same value records nothing, and GitHub OAuth stays on.
    const eventsBefore = readStoredEvents(dataDir).length;
    expectSuccess(
      await root2.put('/api/option/', { key: 'SMTPToken', value: 'persisted-smtp-secret' }),
    );
    expect(readStoredEvents(dataDir).length).toBe(eventsBefore);
    expect((await request(again.url).get('/api/status')).body.data).toMatchObject({
      github_oauth: true,
      system_name: 'Persistent Gateway',
      server_address: 'https://gw.example.com',
    });
    // Unique names and ids hold across the restart.
    expectFailure(
      await request(again.url)
        .post('/api/user/register')
        .send({ username: 'keep-inviter', password: 'password123' }),
      '用户名已存在',
    );
    const next = await registerAndLogin(again.url, 'keep-after-restart');
    expect(next.userId).toBe(Math.max(...Object.keys(before.docs).map(Number)) + 1);
    await stop();
  });

  it('rebuilds deleted read models from the log at start-up, identical to before', async () => {
    const { url } = await start();
    const before = await snapshot(url);
    await stop();
    const readFiles = ['read.sqlite', 'read.sqlite-wal', 'read.sqlite-shm'].map((f) =>
      join(dataDir, f),
    );
    expect(existsSync(readFiles[0]!)).toBe(true);
    for (const file of readFiles) rmSync(file, { force: true });
    const eventCount = readStoredEvents(dataDir).length;

    const rebuilt = await start();
    expect(existsSync(readFiles[0]!)).toBe(true);
    expect(await snapshot(rebuilt.url)).toEqual(before);
    expect(readStoredEvents(dataDir)).toHaveLength(eventCount); // no second root, nothing appended
    const self = await request(rebuilt.url)
      .get('/api/user/self')
      .set('Cookie', carried.cookie)
      .set('New-Api-User', String(carried.id));
    expect(self.status).toBe(200);
    await stop();
  });

  it('rebuildProjections (the CLI code path) on a stopped data dir gives the same read models', async () => {
    const { url } = await start();
    const before = await snapshot(url);
    await stop();

    const eventStore = await createEventStore({ dataDir });
    const readStore = await createReadStore({ dataDir });
    const progress: Array<[number, number]> = [];
    try {
      const result = await rebuildProjections(eventStore, readStore, ALL_PROJECTIONS, {
        onProgress: (done, total) => progress.push([done, total]),
      });
      expect(result.events).toBeGreaterThan(0);
      expect(result.applied['users']).toBeGreaterThan(0);
      expect(result.applied['options']).toBeGreaterThan(0);
      expect(result.position).not.toBeNull();
      const [done, total] = progress.at(-1)!;
      expect(done).toBe(total);
      expect(done).toBe(Number(result.position!.commit));
      expect(progress[0]).toEqual([0, total]);
    } finally {
      await eventStore.close();
      await readStore.close();
    }

    const after = await start();
    expect(await snapshot(after.url)).toEqual(before);
    await stop();
  });

  it('node dist/apps/gateway/src/cli.js projections:rebuild prints its progress and rebuilds the same read models', async () => {
    const { url } = await start();
    const before = await snapshot(url);
    await stop();

    const output = execFileSync(process.execPath, [CLI, 'projections:rebuild'], {
      cwd: REPO,
      env: { ...process.env, DATA_DIR: dataDir, SESSION_SECRET, LOG_LEVEL: 'error' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(output).toContain('Rebuilt from');
    expect(output).toContain('100%');
    expect(output).toMatch(/Rebuilt from \d+ events/);
    // With two cores, every read model but the request logs is replayed on a second thread into
    // a file of its own, copied in and removed at the end.
    if (availableParallelism() > 1) {
      expect(output).toMatch(/on a second thread: users, options, .*task-log\)$/m);
      expect(output).not.toMatch(/on a second thread: .*\blogs\b/);
    }
    expect(existsSync(join(dataDir, LANE_STORE_FILE))).toBe(false);

    const after = await start();
    expect(await snapshot(after.url)).toEqual(before);
    await stop();
  });

  it('projections:rebuild starts from the newest read-model checkpoint; --from-scratch from the log', async () => {
    const checkpoints = join(dataDir, 'checkpoints');
    t = await startTestApp({ dataDir, env: { READ_CHECKPOINT_EVERY: '1' } });
    await registerAndLogin(t.url, 'keep-checkpointed');
    const taken = () =>
      existsSync(checkpoints) && readdirSync(checkpoints).some((n) => n.endsWith('.json'));
    for (let tries = 0; !taken(); tries++) {
      if (tries > 50) throw new Error('no read-model checkpoint was taken');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const before = await snapshot(t.url);
    await stop();
    await new Promise((resolve) => setTimeout(resolve, 300)); // a copy under way at the stop ends
    const rebuild = (args: string[]) =>
      execFileSync(process.execPath, [CLI, 'projections:rebuild', ...args], {
        cwd: REPO,
        env: { ...process.env, DATA_DIR: dataDir, SESSION_SECRET, LOG_LEVEL: 'error' },
        encoding: 'utf8',
        timeout: 60_000,
      });

    const replayed = (output: string) => Number(/Rebuilt from (\d+) events/.exec(output)?.[1]);

    const resumed = rebuild([]);
    expect(resumed).toMatch(
      /Rebuilding from checkpoint at position \d+\/\d+ taken \S+ \(\d+ events to replay\)\n/,
    );
    expect(await snapshot((await start()).url)).toEqual(before);
    await stop();
    const scratch = rebuild(['--from-scratch']);
    expect(scratch).toContain('Rebuilding from scratch (--from-scratch)');
    expect(replayed(resumed)).toBeLessThan(replayed(scratch));
    expect(await snapshot((await start()).url)).toEqual(before);
    await stop();
  });

  it('50 concurrent registrations of one name: exactly one wins; 20 different names all win with distinct ids', async () => {
    const { url } = await start();
    const register = (username: string) =>
      request(url)
        .post('/api/user/register')
        .send({ username, password: 'password123', password2: 'password123' });

    const race = await Promise.all(Array.from({ length: 50 }, () => register('keep-racer')));
    const bodies = race.map((res) => res.body as { success: boolean; message: string });
    expect(bodies.filter((b) => b.success)).toHaveLength(1);
    const losers = bodies.filter((b) => !b.success);
    expect(losers).toHaveLength(49);
    for (const loser of losers) expect(loser).toEqual({ success: false, message: '用户名已存在' });

    const root = await loginRoot(url);
    const found = (await root.get('/api/user/search?keyword=keep-racer&page_size=100')).body
      .data as { total: number; items: Array<{ id: number; username: string }> };
    expect(found.total).toBe(1);
    expect(found.items.map((u) => u.username)).toEqual(['keep-racer']);
    expect(readStoredEvents(dataDir, { streamId: 'username-keep-racer' })).toHaveLength(1);
    expect(
      readStoredEvents(dataDir, { type: 'UserRegistered' }).filter(
        (e) => e.data['username'] === 'keep-racer',
      ),
    ).toHaveLength(1);
    expect(
      (
        await request(url)
          .post('/api/user/login')
          .send({ username: 'keep-racer', password: 'password123' })
      ).body.data.id,
    ).toBe(found.items[0]!.id);

    const names = Array.from({ length: 20 }, (_, i) => `keep-crowd-${i}`);
    const crowd = await Promise.all(names.map(register));
    for (const res of crowd) expect(res.body).toEqual({ success: true, message: '' });
    const logins = await Promise.all(
      names.map((username) =>
        request(url).post('/api/user/login').send({ username, password: 'password123' }),
      ),
    );
    const ids = logins.map((res) => res.body.data.id as number);
    expect(new Set(ids).size).toBe(20);
    const listed = (await root.get('/api/user/search?keyword=keep-crowd-&page_size=100')).body
      .data as { total: number; items: Array<{ id: number; username: string }> };
    expect(listed.total).toBe(20);
    expect(listed.items.map((u) => u.username).sort()).toEqual([...names].sort());
    expect(listed.items.map((u) => u.id).sort((a, b) => a - b)).toEqual(
      [...ids].sort((a, b) => a - b),
    );
    await stop();
  });
});
