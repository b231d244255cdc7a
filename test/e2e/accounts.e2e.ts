import request from 'supertest';
import {
  agedSession,
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

describe('accounts: register, login, self', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('registers, logs in and reads itself', async () => {
    const reg = await request(t.url)
      .post('/api/user/register')
      .send({ username: 'alice', password: 'password123', password2: 'password123' });
    expect(reg.body).toEqual({ success: true, message: '' });
    const alice = await new ConsoleClient(t.url).login('alice', 'password123');
    const self = await alice.get('/api/user/self');
    expect(self.body.success).toBe(true);
    expect(self.body.data).toMatchObject({
      username: 'alice',
      display_name: 'alice',
      role: 1,
      status: 1,
      group: 'default',
      DeletedAt: null,
    });
    expect(self.body.data).not.toHaveProperty('password_hash');
    expect(JSON.stringify(self.body)).not.toContain('argon2');
  });

  it('root login reports the default password', async () => {
    const res = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'root', password: '123456' });
    expect(res.body.data).toMatchObject({
      id: 1,
      username: 'root',
      role: 100,
      default_password: true,
    });
    expect(res.headers['set-cookie']?.[0]).toMatch(/^session=.*HttpOnly/);
  });

  it('rejects bad registrations with their messages and creates nothing', async () => {
    const post = (body: object) =>
      request(t.url).post('/api/user/register').set('Accept-Language', 'zh-CN').send(body);
    expect((await post({ username: 'bob', password: 'short', password2: 'short' })).body).toEqual({
      success: false,
      message: '密码长度不得小于 8 位！',
    });
    expect(
      (await post({ username: 'bob', password: 'password123', password2: 'password124' })).body
        .message,
    ).toBe('两次输入的密码不一致');
    expect((await post({ username: 'alice', password: 'password123' })).body.message).toBe(
      '用户名已存在',
    );
    expect((await post({ username: 'ALICE', password: 'password123' })).body.message).toBe(
      '用户名已存在',
    );
    expect((await post({ username: 'a'.repeat(21), password: 'password123' })).body.success).toBe(
      false,
    );
    expect((await post({ password: 'password123' })).body.success).toBe(false);
    const root = await loginRoot(t.url);
    const list = await root.get('/api/user/search?keyword=bob');
    expect(list.body.data.total).toBe(0);
  });

  it('input the DTOs refuse is explained in the request language', async () => {
    const register = (body: object, language?: string) => {
      const req = request(t.url).post('/api/user/register');
      return (language ? req.set('Accept-Language', language) : req).send(body);
    };
    // No Accept-Language: zh-CN, the console's default.
    expect((await register({ username: 'carol' })).body).toEqual({
      success: false,
      message: '输入不合法：密码 不能为空',
    });
    expect((await register({ username: 'carol' }, 'zh-CN')).body.message).toBe(
      '输入不合法：密码 不能为空',
    );
    expect((await register({ username: 'carol' }, 'en-US,en;q=0.9')).body).toEqual({
      success: false,
      message: 'Invalid input: Password is required',
    });
    expect((await register({ username: 'carol', password: 12345678 }, 'en')).body.message).toBe(
      'Invalid input: Password must be a string',
    );
    expect(
      (await register({ username: 'c'.repeat(101), password: 'password123' })).body.message,
    ).toBe('输入不合法：用户名 长度不能超过 100');
    const root = await loginRoot(t.url);
    expect((await root.get('/api/user/search?keyword=carol')).body.data.total).toBe(0);
  });

  it('an unverified email does not sign in (anyone could have typed it); the username does', async () => {
    await request(t.url)
      .post('/api/user/register')
      .send({ username: 'mailer', password: 'password123', email: 'mailer@example.com' });
    // A second account typing the same address cannot take over or block the first one's login.
    await request(t.url)
      .post('/api/user/register')
      .send({ username: 'squatter', password: 'password123', email: 'mailer@example.com' });
    const byEmail = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'mailer@example.com', password: 'password123' });
    expect(byEmail.body).toEqual({ success: false, message: '用户名或密码错误，或用户已被封禁' });
    const byName = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'mailer', password: 'password123' });
    expect(byName.body.data).toMatchObject({ username: 'mailer' });
  });

  it('login failures: empty fields, wrong password, unknown user', async () => {
    const post = (body: object) => request(t.url).post('/api/user/login').send(body);
    expect((await post({ username: '', password: '' })).body).toEqual({
      success: false,
      message: '请输入用户名和密码！',
    });
    expect((await post({ username: 'alice', password: 'wrong-password' })).body.message).toBe(
      '用户名或密码错误，或用户已被封禁',
    );
    expect((await post({ username: 'nobody', password: 'password123' })).body.message).toBe(
      '用户名或密码错误，或用户已被封禁',
    );
  });

  it('answers in English when asked', async () => {
    const res = await request(t.url)
      .post('/api/user/login')
      .set('Accept-Language', 'en-US,en;q=0.9')
      .send({ username: '', password: '' });
    expect(res.body.message).toBe('Please enter the username and password');
  });

  it('needs a session and a matching New-Api-User header', async () => {
    expect((await request(t.url).get('/api/user/self')).status).toBe(401);
    const alice = await new ConsoleClient(t.url).login('alice', 'password123');
    const noHeader = await alice.agent.get('/api/user/self');
    expect(noHeader.status).toBe(401);
    expect(noHeader.body).toEqual({
      success: false,
      message: '无权进行此操作，未提供 New-Api-User',
    });
    const wrong = await alice.agent.get('/api/user/self').set('New-Api-User', '1');
    expect(wrong.status).toBe(401);
    expect(wrong.body.message).toBe('无权进行此操作，New-Api-User 与登录用户不匹配');
    const forged = await request(t.url)
      .get('/api/user/self')
      .set('Cookie', `session=${alice.userId}.${Date.now()}.forged`)
      .set('New-Api-User', String(alice.userId));
    expect(forged.status).toBe(401);
  });

  it('logout ends the session', async () => {
    const alice = await new ConsoleClient(t.url).login('alice', 'password123');
    expect((await alice.get('/api/user/logout')).body.success).toBe(true);
    expect((await alice.get('/api/user/self')).status).toBe(401);
  });

  it('updates the display name; a password change needs the current one and signs other sessions out', async () => {
    const carol = await registerAndLogin(t.url, 'carol');
    const other = await new ConsoleClient(t.url).login('carol', 'password123');
    expect((await carol.put('/api/user/self', { display_name: 'Carol C' })).body.success).toBe(
      true,
    );
    expect((await carol.get('/api/user/self')).body.data.display_name).toBe('Carol C');
    // Signed in more than ten minutes ago: the current password is required (new-api-answers.e2e).
    const aged = agedSession(t, carol.userId, 11 * 60_000);
    expect((await aged.put('/api/user/self', { password: 'newpassword1' })).body.message).toBe(
      '修改密码需要提供原密码',
    );
    expect(
      (
        await carol.put('/api/user/self', {
          password: 'newpassword1',
          original_password: 'nope-nope',
        })
      ).body.message,
    ).toBe('原密码错误');
    expect(
      (await carol.put('/api/user/self', { password: 'short', original_password: 'password123' }))
        .body.message,
    ).toBe('密码长度不得小于 8 位！');
    expect(
      (
        await carol.put('/api/user/self', {
          password: 'newpassword1',
          original_password: 'password123',
        })
      ).body.success,
    ).toBe(true);
    expect((await carol.get('/api/user/self')).status).toBe(200);
    expect((await other.get('/api/user/self')).status).toBe(401);
    await new ConsoleClient(t.url).login('carol', 'newpassword1');
    const old = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'carol', password: 'password123' });
    expect(old.body.success).toBe(false);
  });

  it('issues a system access token usable as Authorization, replacing the previous one', async () => {
    const dave = await registerAndLogin(t.url, 'dave');
    const first = (await dave.get('/api/user/token')).body.data as string;
    expect(first).toMatch(/^[A-Za-z0-9]{32}$/);
    const viaToken = await request(t.url)
      .get('/api/user/self')
      .set('Authorization', first)
      .set('New-Api-User', String(dave.userId));
    expect(viaToken.body.data.username).toBe('dave');
    const bearer = await request(t.url)
      .get('/api/user/self')
      .set('Authorization', `Bearer ${first}`)
      .set('New-Api-User', String(dave.userId));
    expect(bearer.body.success).toBe(true);
    const second = (await dave.get('/api/user/token')).body.data as string;
    expect(second).not.toBe(first);
    const stale = await request(t.url)
      .get('/api/user/self')
      .set('Authorization', first)
      .set('New-Api-User', String(dave.userId));
    // new-api: an access token that is not valid is a business failure (HTTP 200), not a 401.
    expect({ status: stale.status, body: stale.body }).toEqual({
      status: 200,
      body: { success: false, message: '无权进行此操作，access token 无效' },
    });
  });

  it('deletes its own account: the session ends, the row stays marked, the name stays taken', async () => {
    const erin = await registerAndLogin(t.url, 'erin');
    expect((await erin.delete('/api/user/self')).body.success).toBe(true);
    expect((await erin.get('/api/user/self')).status).toBe(401);
    const login = await request(t.url)
      .post('/api/user/login')
      .send({ username: 'erin', password: 'password123' });
    expect(login.body.success).toBe(false);
    const root = await loginRoot(t.url);
    const row = (await root.get(`/api/user/${erin.userId}`)).body.data;
    expect(row.DeletedAt).not.toBeNull();
    const again = await request(t.url)
      .post('/api/user/register')
      .send({ username: 'erin', password: 'password123' });
    expect(again.body.message).toBe('用户名已存在');
  });

  it('root cannot delete itself', async () => {
    const root = await loginRoot(t.url);
    expect((await root.delete('/api/user/self')).body).toEqual({
      success: false,
      message: '不能删除超级管理员账户',
    });
  });

  it('groups and models for the user', async () => {
    const alice = await new ConsoleClient(t.url).login('alice', 'password123');
    const groups = await alice.get('/api/user/self/groups');
    expect(groups.body.data).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 1, desc: 'vip分组' },
    });
    const models = await alice.get('/api/user/models');
    expect(Array.isArray(models.body.data)).toBe(true);
    const catalogue = await alice.get('/api/models');
    expect(catalogue.body.data['1']).toContain('gpt-4o');
  });
});

describe('accounts: quota grants and invitations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('grants QuotaForNewUser, QuotaForInvitee and QuotaForInviter, and transfers invitation earnings', async () => {
    const root = await loginRoot(t.url);
    for (const [key, value] of [
      ['QuotaForNewUser', '1000'],
      ['QuotaForInvitee', '2000'],
      ['QuotaForInviter', '600000'],
    ])
      expect((await root.put('/api/option/', { key, value })).body.success).toBe(true);
    const inviter = await registerAndLogin(t.url, 'inviter');
    const affCode = (await inviter.get('/api/user/aff')).body.data as string;
    expect(affCode).toMatch(/^[A-Za-z0-9]{8}$/);
    const invitee = await registerAndLogin(t.url, 'invitee', 'password123', { aff_code: affCode });
    expect((await invitee.get('/api/user/self')).body.data).toMatchObject({
      quota: 3000,
      inviter_id: inviter.userId,
    });
    const before = (await inviter.get('/api/user/self')).body.data;
    expect(before).toMatchObject({
      quota: 1000,
      aff_count: 1,
      aff_quota: 600000,
      aff_history_quota: 600000,
    });

    const tooSmall = await inviter.post('/api/user/aff_transfer', { quota: 499999 });
    expect(tooSmall.body).toEqual({ success: false, message: '划转金额最低为 500000' });
    const tooMuch = await inviter.post('/api/user/aff_transfer', { quota: 700000 });
    expect(tooMuch.body.message).toBe('邀请额度不足！');
    expect((await inviter.post('/api/user/aff_transfer', { quota: 500000 })).body.success).toBe(
      true,
    );
    expect((await inviter.get('/api/user/self')).body.data).toMatchObject({
      quota: 501000,
      aff_quota: 100000,
      aff_history_quota: 600000,
    });
  });

  it('an unknown aff code neither blocks registration nor rewards anyone', async () => {
    const u = await registerAndLogin(t.url, 'stranger', 'password123', { aff_code: 'NOPE1234' });
    expect((await u.get('/api/user/self')).body.data).toMatchObject({ inviter_id: 0, quota: 1000 });
  });
});

describe('accounts: rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { CRITICAL_RATE_LIMIT: '3', CRITICAL_RATE_LIMIT_DURATION: '60' },
    });
  });
  afterAll(() => t.close());

  it('answers 429 after CRITICAL_RATE_LIMIT login attempts from one IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push(
        (await request(t.url).post('/api/user/login').send({ username: 'root', password: 'x' }))
          .status,
      );
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    const limited = await request(t.url)
      .post('/api/user/register')
      .send({ username: 'z', password: 'password123' });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ success: false, message: '请求次数过多，请稍后再试！' });
  });
});
