import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import request from 'supertest';
import { allSqliteText, readStateEvents, readStoredEvents } from '../support/e2e-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/**
 * Linux DO Connect sign-in, registration and binding (new-api's controller/linuxdo.go)
 * against a local OAuth2 server started here in place of connect.linux.do (LINUXDO_OAUTH_URL and
 * LINUXDO_API_URL point at it): the token endpoint wants the client as HTTP basic authentication.
 */

const CLIENT_ID = 'ld-client';
const CLIENT_SECRET = 'ld-secret-94c1e0';

interface LinuxDoUser {
  id: number;
  username: string;
  name: string;
  active: boolean;
  trust_level: number;
  silenced: boolean;
}
const codes = new Map<string, LinuxDoUser>();
const tokens = new Map<string, LinuxDoUser>();
const exchanges: Array<{ authorization: string; form: Record<string, string> }> = [];

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

function handler(req: IncomingMessage, body: string, res: ServerResponse) {
  if (req.method === 'POST' && req.url === '/oauth2/token') {
    const form = Object.fromEntries(new URLSearchParams(body));
    exchanges.push({ authorization: req.headers.authorization ?? '', form });
    const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== basic)
      return json(res, 401, { error: 'invalid_client', message: 'client authentication failed' });
    const user = codes.get(form['code'] ?? '');
    if (!user || form['grant_type'] !== 'authorization_code')
      return json(res, 400, { error: 'invalid_grant', message: 'invalid code' });
    codes.delete(form['code']!);
    const token = `ld-at-${user.id}-${tokens.size}`;
    tokens.set(token, user);
    return json(res, 200, { access_token: token, token_type: 'bearer' });
  }
  if (req.method === 'GET' && req.url === '/api/user') {
    const user = tokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    return user ? json(res, 200, user) : json(res, 401, { error: 'unauthorized' });
  }
  json(res, 404, {});
}

const linuxdoUser = (id: number, username: string, extra: Partial<LinuxDoUser> = {}) => ({
  id,
  username,
  name: `LD ${username}`,
  active: true,
  trust_level: 1,
  silenced: false,
  ...extra,
});

describe('Linux DO sign-in and binding', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let server: Server;

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => handler(req, body, res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    t = await startTestApp({ env: { LINUXDO_OAUTH_URL: url, LINUXDO_API_URL: url } });
    root = await loginRoot(t.url);
  });

  afterAll(async () => {
    await t?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  const zh = (test: request.Test) => test.set('Accept-Language', 'zh-CN');
  const setOption = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).body).toMatchObject({ success: true });

  /** The console's button: a state, Linux DO redirects back with a code, the callback page calls us. */
  async function callback(agent: request.Agent, user: LinuxDoUser | null, aff = '') {
    const state = (await agent.get('/api/oauth/state').query(aff ? { aff } : {})).body
      .data as string;
    const code = `code-${Math.random().toString(36).slice(2)}`;
    if (user) codes.set(code, user);
    return zh(agent.get('/api/oauth/linuxdo').query({ code, state }));
  }

  it('is refused while off; needs client id and secret before it can be enabled', async () => {
    const off = await callback(request.agent(t.url), linuxdoUser(1, 'neo'));
    expect(off.body).toEqual({ success: false, message: '管理员未开启通过 Linux DO 登录以及注册' });
    const early = await zh(root.put('/api/option/', { key: 'LinuxDOOAuthEnabled', value: 'true' }));
    expect(early.body).toEqual({
      success: false,
      message: '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
    });
    await setOption('LinuxDOClientId', CLIENT_ID);
    await setOption('LinuxDOClientSecret', CLIENT_SECRET);
    await setOption('LinuxDOOAuthEnabled', 'true');
    const status = (await request(t.url).get('/api/status')).body.data;
    expect(status).toMatchObject({ linuxdo_oauth: true, linuxdo_client_id: CLIENT_ID });
    expect(JSON.stringify(status)).not.toContain(CLIENT_SECRET);
  });

  it('registers a new user (invited through ?aff=) and signs it in; later visits are the same user', async () => {
    const inviter = await registerAndLogin(t.url, 'ld_inviter');
    const affCode = (await inviter.get('/api/user/self')).body.data.aff_code as string;
    const browser = request.agent(t.url);
    const res = await callback(browser, linuxdoUser(101, 'neo'), affCode);
    expect(res.body).toMatchObject({
      success: true,
      data: { username: 'neo', display_name: 'LD neo' },
    });
    const id = res.body.data.id as number;
    const self = (await browser.get('/api/user/self').set('New-Api-User', String(id))).body.data;
    expect(self).toMatchObject({ linux_do_id: '101', inviter_id: inviter.userId });
    const exchange = exchanges.at(-1)!;
    expect(exchange.form).toMatchObject({
      grant_type: 'authorization_code',
      redirect_uri: `${t.url}/oauth/linuxdo`,
    });
    expect(exchange.form).not.toHaveProperty('client_secret');
    const bound = readStoredEvents(t.dataDir, { streamId: `user-${id}` }).filter(
      (e) => e.type === 'UserExternalIdentityBound',
    );
    expect(bound.map((e) => e.data)).toEqual([
      { userId: id, provider: 'linuxdo', externalId: '101' },
    ]);
    expect(readStoredEvents(t.dataDir, { streamId: 'linuxdoid-101' })).toHaveLength(1);

    const again = await callback(request.agent(t.url), linuxdoUser(101, 'neo-renamed'));
    expect(again.body).toMatchObject({ success: true, data: { id } });
  });

  it('like new-api, trust level, activity and silence do not refuse; a user without id does', async () => {
    const low = await callback(
      request.agent(t.url),
      linuxdoUser(102, 'trin', { trust_level: 0, active: false, silenced: true }),
    );
    expect(low.body.success).toBe(true);
    const noId = await callback(request.agent(t.url), { ...linuxdoUser(0, 'ghost') });
    expect(noId.body).toEqual({ success: false, message: 'Linux DO 返回的用户信息无效' });
  });

  it('binds for a signed-in user; an id bound to another user is refused', async () => {
    const alice = await registerAndLogin(t.url, 'ld_alice');
    const res = await callback(alice.agent, linuxdoUser(201, 'alice-ld'));
    expect(res.body).toEqual({ success: true, message: 'bind' });
    expect((await alice.get('/api/user/self')).body.data.linux_do_id).toBe('201');
    const bob = await registerAndLogin(t.url, 'ld_bob');
    const taken = await callback(bob.agent, linuxdoUser(101, 'neo'));
    expect(taken.body).toEqual({ success: false, message: '该 Linux DO 账户已被绑定' });
    expect((await bob.get('/api/user/self')).body.data.linux_do_id).toBe('');
  });

  it('refuses a bad state, a refused code, and passes on what Linux DO said when the user declined', async () => {
    const before = readStateEvents(t.dataDir).length;
    const agent = request.agent(t.url);
    await agent.get('/api/oauth/state');
    const badState = await zh(agent.get('/api/oauth/linuxdo').query({ code: 'c', state: 'nope' }));
    expect(badState.body).toEqual({
      success: false,
      message: '登录状态无效或已过期，请重新发起登录',
    });
    const unknownCode = await callback(request.agent(t.url), null);
    expect(unknownCode.body).toEqual({
      success: false,
      message: '获取 Linux DO 访问令牌失败：invalid code',
    });
    const declined = await zh(
      request(t.url).get('/api/oauth/linuxdo').query({
        error: 'access_denied',
        error_description: 'The resource owner denied the request',
      }),
    );
    expect(declined.body).toEqual({
      success: false,
      message: '授权失败：The resource owner denied the request',
    });
    expect(readStateEvents(t.dataDir).length).toBe(before);
  });

  it('the client secret is in no answer, event or read model', () => {
    for (const file of ['events.sqlite', 'read.sqlite'])
      expect(allSqliteText(join(t.dataDir, file))).not.toContain(CLIENT_SECRET);
  });
});
