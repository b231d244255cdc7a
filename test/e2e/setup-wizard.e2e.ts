import request from 'supertest';
import { readStoredEvents } from '../support/e2e-helpers';
import { ConsoleClient, ROOT, startTestApp, type TestApp } from '../support/test-app';

/**
 * new-api's first-run wizard: GET/POST /api/setup and /api/status `setup`. Root is
 * bootstrapped as root / 123456; the wizard is open while that password is in place, and the default
 * credentials keep working until it (or any password change) replaces them.
 */
describe('first-run wizard (GET/POST /api/setup)', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  const zh = (test: request.Test) => test.set('Accept-Language', 'zh-CN');
  const post = (body: object) => zh(request(t.url).post('/api/setup').send(body));
  const good = {
    username: 'owner',
    password: 'owner-password-1',
    confirmPassword: 'owner-password-1',
    SelfUseModeEnabled: true,
    DemoSiteEnabled: false,
  };

  it('is open on a fresh gateway; the default root credentials still sign in', async () => {
    expect((await request(t.url).get('/api/setup')).body).toEqual({
      success: true,
      message: '',
      data: { status: false, root_init: false, database_type: 'sqlite' },
    });
    expect((await request(t.url).get('/api/status')).body.data.setup).toBe(false);
    await new ConsoleClient(t.url).login(ROOT.username, ROOT.password);
  });

  it("refuses bad input with new-api's messages and changes nothing", async () => {
    const before = readStoredEvents(t.dataDir).length;
    expect((await post({ ...good, confirmPassword: 'other-password' })).body).toEqual({
      success: false,
      message: '两次输入的密码不一致',
    });
    expect((await post({ ...good, password: 'short', confirmPassword: 'short' })).body).toEqual({
      success: false,
      message: '密码长度至少为8个字符',
    });
    expect((await post({ ...good, username: 'bad name!' })).body.success).toBe(false);
    expect((await post({ ...good, SelfUseModeEnabled: 'yes' })).body.success).toBe(false);
    expect(readStoredEvents(t.dataDir).length).toBe(before);
    expect((await request(t.url).get('/api/status')).body.data.setup).toBe(false);
  });

  it('renames root, sets its password and the usage mode, as events by the anonymous caller', async () => {
    const res = await post(good);
    expect(res.body).toEqual({ success: true, message: '系统初始化成功' });
    const userEvents = readStoredEvents(t.dataDir, { streamId: 'user-1' });
    const renamed = userEvents.find((e) => e.type === 'UserRenamed')!;
    const changed = userEvents.find((e) => e.type === 'UserPasswordChanged')!;
    expect(renamed.data).toEqual({ userId: 1, from: 'root', to: 'owner' });
    expect(changed.data).toMatchObject({ userId: 1, reason: 'setup' });
    expect(changed.rawData).not.toContain(good.password);
    const option = readStoredEvents(t.dataDir, { streamId: 'options' }).find(
      (e) => e.data['key'] === 'SelfUseModeEnabled',
    )!;
    expect(option.data).toEqual({ key: 'SelfUseModeEnabled', value: 'true', previous: 'false' });
    for (const event of [renamed, changed, option]) {
      expect(event.metadata['actor']).toEqual({ kind: 'anonymous', id: null, role: null });
      expect(event.metadata['ip']).toBe('127.0.0.1');
    }
    expect(readStoredEvents(t.dataDir, { streamId: 'username-owner' })).toHaveLength(1);
  });

  it('is done afterwards: GET and /api/status say so, a second POST is refused', async () => {
    expect((await request(t.url).get('/api/setup')).body.data).toMatchObject({ status: true });
    const status = (await request(t.url).get('/api/status')).body.data;
    expect(status).toMatchObject({
      setup: true,
      self_use_mode_enabled: true,
      demo_site_enabled: false,
    });
    const before = readStoredEvents(t.dataDir).length;
    expect((await post({ ...good, username: 'intruder' })).body).toEqual({
      success: false,
      message: '系统已经初始化完成',
    });
    expect(readStoredEvents(t.dataDir).length).toBe(before);
  });

  it('root signs in with the new credentials only', async () => {
    const owner = await new ConsoleClient(t.url).login(good.username, good.password);
    expect((await owner.get('/api/user/self')).body.data).toMatchObject({ id: 1, role: 100 });
    const old = await zh(request(t.url).post('/api/user/login').send(ROOT));
    expect(old.body.success).toBe(false);
  });

  it('on another gateway, a password changed by hand closes the wizard too', async () => {
    const other = await startTestApp();
    try {
      const root = await new ConsoleClient(other.url).login(ROOT.username, ROOT.password);
      const res = await root.put('/api/user/self', {
        password: 'changed-by-hand-1',
        original_password: ROOT.password,
      });
      expect(res.body.success).toBe(true);
      expect((await request(other.url).get('/api/status')).body.data.setup).toBe(true);
      expect((await zh(request(other.url).post('/api/setup').send(good))).body.message).toBe(
        '系统已经初始化完成',
      );
    } finally {
      await other.close();
    }
  });
});
