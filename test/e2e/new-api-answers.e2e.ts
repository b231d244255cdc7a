import request, { type Response } from 'supertest';
import { SESSION_ENDED_HEADER, USER_ID_HEADER } from '@tollgate/contracts';
import {
  countStoredEvents,
  expectFailure,
  expectSuccess,
  readStoredEvents,
  sessionCookieOf,
} from '../support/e2e-helpers';
import {
  agedSession,
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/**
 * The answers new-api's own console and scripts rely on (its April-2025 build),
 * route by route: shapes of models, groups, users and status; option writes without a value; the
 * authentication answers (HTTP status and body).
 */
describe('new-api answers', () => {
  let t: TestApp;
  let root: ConsoleClient;

  beforeAll(async () => {
    // Three wrong current passwords per user exhaust the guess limit (the last test).
    t = await startTestApp({
      env: { PASSWORD_ATTEMPT_LIMIT: '3', PASSWORD_ATTEMPT_WINDOW: '600' },
    });
    root = await loginRoot(t.url);
  });
  afterAll(() => t.close());

  const setOption = async (key: string, value: string) =>
    expectSuccess(await root.put('/api/option/', { key, value }));
  const optionValue = async (key: string) =>
    ((await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>).find(
      (o) => o.key === key,
    )?.value;
  const createChannel = async (name: string, models: string, group: string) => {
    const res = await root.post('/api/channel/', {
      type: 1,
      name,
      key: `sk-${name}`,
      base_url: 'http://127.0.0.1:9',
      models,
      group,
    });
    expectSuccess(res);
    return (res.body.data as { ids: number[] }).ids[0]!;
  };

  describe('models and groups', () => {
    let user: ConsoleClient;

    beforeAll(async () => {
      await createChannel('na-default', 'na-default-1,na-shared', 'default');
      await createChannel('na-vip', 'na-vip-1,na-shared', 'vip');
      await createChannel('na-special', 'na-special-1', 'special');
      const off = await createChannel('na-off', 'na-off-1', 'default');
      expectSuccess(await root.put('/api/channel/', { id: off, status: 2 }));
      user = await registerAndLogin(t.url, 'modelsuser');
    });

    it('GET /api/user/models is the list of names the user reaches, once each, enabled channels only', async () => {
      const res = await user.get('/api/user/models');
      expect(res.status).toBe(200);
      // default and vip (UserUsableGroups); not the special group, not the disabled channel.
      expect(res.body).toEqual({
        success: true,
        message: '',
        data: ['na-default-1', 'na-shared', 'na-vip-1'],
      });
    });

    it('GET /api/user/self/groups maps each usable group to {ratio, desc}', async () => {
      const res = await user.get('/api/user/self/groups');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: '',
        data: {
          default: { ratio: 1, desc: '默认分组' },
          vip: { ratio: 1, desc: 'vip分组' },
        },
      });
    });

    it("the user's own group joins both (labelled 用户分组); a group without a ratio is not offered", async () => {
      await setOption('GroupRatio', JSON.stringify({ default: 1, vip: 2, special: 0.5 }));
      await setOption(
        'UserUsableGroups',
        JSON.stringify({ default: '默认分组', vip: 'vip分组', noratio: '无倍率分组' }),
      );
      const special = await registerAndLogin(t.url, 'specialuser');
      expectSuccess(await root.put('/api/user/', { id: special.userId, group: 'special' }));

      expect((await special.get('/api/user/self/groups')).body.data).toEqual({
        default: { ratio: 1, desc: '默认分组' },
        vip: { ratio: 2, desc: 'vip分组' },
        special: { ratio: 0.5, desc: '用户分组' },
      });
      expect((await special.get('/api/user/models')).body.data).toEqual([
        'na-default-1',
        'na-shared',
        'na-special-1',
        'na-vip-1',
      ]);
      // Others do not see the special group.
      expect(Object.keys((await user.get('/api/user/self/groups')).body.data)).toEqual([
        'default',
        'vip',
      ]);
    });

    it('GET /api/user/groups is public, same shape, and not taken for GET /api/user/:id', async () => {
      const anonymous = await request(t.url).get('/api/user/groups');
      expect(anonymous.status).toBe(200);
      expect(anonymous.body).toEqual({
        success: true,
        message: '',
        data: { default: { ratio: 1, desc: '默认分组' }, vip: { ratio: 2, desc: 'vip分组' } },
      });
      // Signed in or not, the answer is the same (new-api reads no session there).
      expect((await user.get('/api/user/groups')).body).toEqual(anonymous.body);
      // The admin route next to it still answers for numeric ids only.
      expect((await request(t.url).get('/api/user/2')).status).toBe(401);
    });
  });

  describe('user objects', () => {
    const NEW_API_FIELDS = { oidc_id: '', linux_do_id: '', setting: '' };

    it('self, by id, list rows and search rows carry oidc_id, linux_do_id and setting', async () => {
      const frank = await registerAndLogin(t.url, 'frankfields');
      expect((await frank.get('/api/user/self')).body.data).toMatchObject({
        username: 'frankfields',
        ...NEW_API_FIELDS,
      });
      expect((await root.get(`/api/user/${frank.userId}`)).body.data).toMatchObject(NEW_API_FIELDS);
      const list = (await root.get('/api/user/?p=1&page_size=100')).body.data.items as object[];
      expect(list.length).toBeGreaterThan(1);
      for (const row of list) expect(row).toMatchObject(NEW_API_FIELDS);
      const found = (await root.get('/api/user/search?keyword=frankfields')).body.data
        .items as object[];
      expect(found).toEqual([expect.objectContaining({ id: frank.userId, ...NEW_API_FIELDS })]);
    });
  });

  describe('GET /api/status', () => {
    it('carries docs_link, demo_site_enabled, self_use_mode_enabled, price and enable_batch_update', async () => {
      const status = async () => (await request(t.url).get('/api/status')).body.data;
      expect(await status()).toMatchObject({
        docs_link: '',
        demo_site_enabled: false,
        self_use_mode_enabled: false,
        price: 7.3,
        enable_batch_update: true,
      });
      await setOption('general_setting.docs_link', 'https://docs.example.com/');
      await setOption('DemoSiteEnabled', 'true');
      await setOption('SelfUseModeEnabled', 'true');
      await setOption('Price', '7.5');
      expect(await status()).toMatchObject({
        docs_link: 'https://docs.example.com',
        demo_site_enabled: true,
        self_use_mode_enabled: true,
        price: 7.5,
        enable_batch_update: true,
      });
      await setOption('SelfUseModeEnabled', 'false');
      await setOption('DemoSiteEnabled', 'false');
    });
  });

  describe('PUT /api/option/ without value', () => {
    it("stores '' for a text key, as new-api's SMTP form expects", async () => {
      await setOption('SMTPServer', 'smtp.example.com');
      const res = await root.put('/api/option/', { key: 'SMTPServer' });
      expect(res.body).toEqual({ success: true, message: '' });
      expect(await optionValue('SMTPServer')).toBe('');
      const last = readStoredEvents(t.dataDir, { streamId: 'options' }).at(-1);
      expect(last).toMatchObject({
        type: 'OptionChanged',
        data: { key: 'SMTPServer', value: '', previous: 'smtp.example.com' },
      });
    });

    it('clears a secret key the same way', async () => {
      await setOption('SMTPToken', 'smtp-password');
      const before = countStoredEvents(t.dataDir);
      expectSuccess(await root.put('/api/option/', { key: 'SMTPToken' }));
      const last = readStoredEvents(t.dataDir, { streamId: 'options' }).at(-1);
      expect(countStoredEvents(t.dataDir)).toBe(before + 1);
      expect(last).toMatchObject({
        type: 'SecretOptionChanged',
        data: { key: 'SMTPToken', sealed: null },
      });
    });

    it('a switch or a number without value is a clear error (zh-CN and en) and changes nothing', async () => {
      const before = countStoredEvents(t.dataDir);
      for (const key of ['DrawingEnabled', 'RetryTimes', 'ModelRatio'])
        expectFailure(await root.put('/api/option/', { key }), '输入不合法：字段 value 不能为空');
      const en = await root
        .put('/api/option/', { key: 'DrawingEnabled' })
        .set('Accept-Language', 'en');
      expect(en.body).toEqual({ success: false, message: 'Invalid input: value is required' });
      // null is the value left out: '' for a text key, already stored, so nothing changes.
      expectSuccess(await root.put('/api/option/', { key: 'SMTPServer', value: null }));
      expectFailure(await root.put('/api/option/', { key: 'NoSuchKey' }), '未知的配置项 NoSuchKey');
      expect(countStoredEvents(t.dataDir)).toBe(before);
    });

    it('validation answers are Chinese in the zh-CN envelope, never class-validator English', async () => {
      const english = /\b(must|should|each value|property)\b/;
      for (const body of [{ key: 5, value: 'x' }, { key: 'x'.repeat(101), value: 'x' }, {}]) {
        const res = await root.put('/api/option/', body);
        expect(res.body.success).toBe(false);
        expect(res.body.message).toMatch(/^输入不合法：/);
        expect(res.body.message).not.toMatch(english);
      }
    });
  });

  describe('authentication answers', () => {
    const self = (cookie: string, id: number) =>
      request(t.url).get('/api/user/self').set('Cookie', cookie).set(USER_ID_HEADER, String(id));

    it('no session and no access token: 401 未登录且未提供 access token (as new-api)', async () => {
      const res = await request(t.url).get('/api/user/self');
      expect({ status: res.status, body: res.body }).toEqual({
        status: 401,
        body: { success: false, message: '无权进行此操作，未登录且未提供 access token' },
      });
    });

    it('an access token that is not valid: HTTP 200 access token 无效', async () => {
      for (const authorization of ['not-a-token', 'Bearer abcdefabcdefabcdefabcdefabcdefab']) {
        const res = await request(t.url)
          .get('/api/user/self')
          .set('Authorization', authorization)
          .set(USER_ID_HEADER, '1');
        expect({ status: res.status, body: res.body }).toEqual({
          status: 200,
          body: { success: false, message: '无权进行此操作，access token 无效' },
        });
      }
    });

    it("a banned user's session: HTTP 200 用户已被封禁, the cookie cleared, no event", async () => {
      const login = await request(t.url)
        .post('/api/user/login')
        .send({ username: 'modelsuser', password: 'password123' });
      const cookie = sessionCookieOf(login);
      const id = login.body.data.id as number;
      expectSuccess(await root.post('/api/user/manage', { id, action: 'disable' }));
      const before = countStoredEvents(t.dataDir);

      const res = await self(cookie, id);
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { success: false, message: '用户已被封禁' },
      });
      expect(res.headers[SESSION_ENDED_HEADER.toLowerCase()]).toBe('banned');
      const cleared = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
      expect(cleared).toEqual([
        expect.stringMatching(/^session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/),
      ]);
      expect(countStoredEvents(t.dataDir)).toBe(before);
      // Other routes answer the same; in English for an English console.
      const en = await request(t.url)
        .get('/api/token/')
        .set('Cookie', cookie)
        .set(USER_ID_HEADER, String(id))
        .set('Accept-Language', 'en');
      expect({ status: en.status, body: en.body }).toEqual({
        status: 200,
        body: { success: false, message: 'This user has been banned' },
      });
      // Without the console's header it is refused for that first, as new-api does.
      expect((await request(t.url).get('/api/user/self').set('Cookie', cookie)).status).toBe(401);
      // Enabled again, the session stays over: now it is simply not signed in.
      expectSuccess(await root.post('/api/user/manage', { id, action: 'enable' }));
      const after = await self(cookie, id);
      expect({ status: after.status, message: after.body.message }).toEqual({
        status: 401,
        message: '无权进行此操作，未登录且未提供 access token',
      });
    });

    it('signing in as a banned user answers exactly as a wrong password does', async () => {
      const banned = await registerAndLogin(t.url, 'bannedlogin');
      expectSuccess(await root.post('/api/user/manage', { id: banned.userId, action: 'disable' }));
      const attempt = (password: string) =>
        request(t.url).post('/api/user/login').send({ username: 'bannedlogin', password });
      const [right, wrong] = [await attempt('password123'), await attempt('wrong-password')];
      const shape = (res: Response) => ({
        status: res.status,
        body: res.body as unknown,
        cookie: res.headers['set-cookie'] ?? null,
      });
      expect(shape(right)).toEqual({
        status: 200,
        body: { success: false, message: '用户名或密码错误，或用户已被封禁' },
        cookie: null,
      });
      expect(shape(wrong)).toEqual(shape(right));
    });
  });

  describe('password change', () => {
    const relogin = async (username: string, password: string) =>
      (await request(t.url).post('/api/user/login').send({ username, password })).body.success;

    it('right after signing in, the new password alone is enough (new-api console)', async () => {
      const gina = await registerAndLogin(t.url, 'ginapw');
      expectSuccess(await gina.put('/api/user/self', { password: 'newpassword1' }));
      expect(await relogin('ginapw', 'newpassword1')).toBe(true);
      expect(await relogin('ginapw', 'password123')).toBe(false);
      // The same session, renewed by the change, still works.
      expect((await gina.get('/api/user/self')).body.success).toBe(true);
    });

    it('a session nine minutes old still may; one eleven minutes old needs original_password', async () => {
      const hugo = await registerAndLogin(t.url, 'hugopw');
      const old = agedSession(t, hugo.userId, 11 * 60_000);
      expectFailure(
        await old.put('/api/user/self', { password: 'newpassword1' }),
        '修改密码需要提供原密码',
      );
      expectFailure(
        await old.put('/api/user/self', {
          password: 'newpassword1',
          original_password: 'nope-nope',
        }),
        '原密码错误',
      );
      expectSuccess(
        await old.put('/api/user/self', {
          password: 'newpassword1',
          original_password: 'password123',
        }),
      );
      expect(await relogin('hugopw', 'newpassword1')).toBe(true);

      const ivy = await registerAndLogin(t.url, 'ivypw');
      const recent = agedSession(t, ivy.userId, 9 * 60_000);
      expectSuccess(await recent.put('/api/user/self', { password: 'newpassword2' }));
      expect(await relogin('ivypw', 'newpassword2')).toBe(true);
    });

    it('a system access token (no session) always needs original_password', async () => {
      const jack = await registerAndLogin(t.url, 'jackpw');
      const token = (await jack.get('/api/user/token')).body.data as string;
      const res = await request(t.url)
        .put('/api/user/self')
        .set('Authorization', token)
        .set(USER_ID_HEADER, String(jack.userId))
        .send({ password: 'newpassword1' });
      expectFailure(res, '修改密码需要提供原密码');
    });

    it('a current password that is sent is checked, under the guess limit, even right after sign-in', async () => {
      const kate = await registerAndLogin(t.url, 'katepw');
      const events = countStoredEvents(t.dataDir);
      const wrong = () =>
        kate.put('/api/user/self', { password: 'newpassword1', original_password: 'nope-nope' });
      for (let i = 0; i < 3; i += 1) expectFailure(await wrong(), '原密码错误');
      const limited = await wrong();
      expect({ status: limited.status, success: limited.body.success }).toEqual({
        status: 429,
        success: false,
      });
      expect(countStoredEvents(t.dataDir)).toBe(events);
      expect(await relogin('katepw', 'password123')).toBe(true);
    });
  });
});
