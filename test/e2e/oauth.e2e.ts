import { createHash, createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
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
 * Third-party sign-in and binding against local mocks started here: GitHub (token and
 * user endpoints) and the WeChat server of the one-api family; Telegram's widget data is signed
 * here. OpenID Connect (a real provider process, and a forging one) is in oidc-provider.e2e.ts.
 */

const GITHUB_CLIENT_ID = 'gh-client-id';
const GITHUB_SECRET = 'gh-client-secret-7b1f0c';
const WECHAT_TOKEN = 'wechat-server-token-93ad1';
const TELEGRAM_TOKEN = '123456:telegram-bot-token-e0f2';
const SECRETS = [GITHUB_SECRET, WECHAT_TOKEN, TELEGRAM_TOKEN];

interface Mock {
  readonly url: string;
  readonly calls: string[];
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

async function startMock(handler: Handler): Promise<Mock> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      calls.push(`${req.method} ${req.url}`);
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return {
    url: `http://127.0.0.1:${address.port}`,
    calls,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** GitHub: codes name users; each code is good once (as at GitHub), tokens name users too. */
interface GitHubUser {
  id: number;
  login: string;
  name: string | null;
  email: string | null;
}
const githubCodes = new Map<string, GitHubUser>();
const githubTokens = new Map<string, GitHubUser>();
let tokenCounter = 0;

const githubHandler: Handler = (req, body, res) => {
  if (req.method === 'POST' && req.url === '/login/oauth/access_token') {
    const { client_id, client_secret, code } = JSON.parse(body) as Record<string, string>;
    if (client_id !== GITHUB_CLIENT_ID || client_secret !== GITHUB_SECRET)
      return json(res, 200, { error: 'incorrect_client_credentials' });
    const user = githubCodes.get(code ?? '');
    if (!user) return json(res, 200, { error: 'bad_verification_code' });
    githubCodes.delete(code!);
    const token = `gho_mock_${++tokenCounter}`;
    githubTokens.set(token, user);
    return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
  }
  if (req.method === 'GET' && req.url === '/user') {
    const user = githubTokens.get((req.headers.authorization ?? '').replace(/^Bearer /, ''));
    return user ? json(res, 200, user) : json(res, 401, { message: 'Bad credentials' });
  }
  json(res, 404, { message: 'Not Found' });
};

/** The WeChat server: codes map to wechat ids, the token must match. */
const wechatCodes = new Map<string, string>();
const wechatHandler: Handler = (req, _body, res) => {
  const url = new URL(req.url ?? '/', 'http://mock');
  if (url.pathname !== '/api/wechat/user') return json(res, 404, {});
  if (req.headers.authorization !== WECHAT_TOKEN)
    return json(res, 200, { success: false, message: '无权进行此操作，token 无效' });
  const id = wechatCodes.get(url.searchParams.get('code') ?? '');
  if (!id) return json(res, 200, { success: false, message: '验证码错误或已过期', data: '' });
  json(res, 200, { success: true, message: '', data: id });
};

/** Telegram's documented signature, computed here independently of the gateway's code. */
function telegramData(fields: Record<string, string>, token = TELEGRAM_TOKEN) {
  const check = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(token).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(check).digest('hex') };
}
const nowS = () => Math.floor(Date.now() / 1000);

describe('third-party sign-in and binding (GitHub, WeChat, Telegram)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let github: Mock;
  let wechat: Mock;
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const)
      spies.push(
        jest.spyOn(Logger.prototype, level).mockImplementation(function (...args: unknown[]) {
          logged.push(args.map((a) => (a instanceof Error ? a.stack : String(a))).join(' '));
        }),
      );
    github = await startMock(githubHandler);
    wechat = await startMock(wechatHandler);
    t = await startTestApp({
      env: { GITHUB_OAUTH_URL: github.url, GITHUB_API_URL: `${github.url}/` },
    });
    root = await loginRoot(t.url);
  });
  afterAll(async () => {
    await t.close();
    await Promise.all([github.close(), wechat.close()]);
    spies.forEach((spy) => spy.mockRestore());
  });

  const setOption = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    expect([key, res.body.success, res.body.message]).toEqual([key, true, '']);
  };
  const zh = (test: request.Test) => test.set('Accept-Language', 'zh-CN');
  const self = async (client: request.Agent, id: number) =>
    (await client.get('/api/user/self').set('New-Api-User', String(id))).body.data as Record<
      string,
      unknown
    >;
  const boundEvents = (userId: number) =>
    readStoredEvents(t.dataDir, { streamId: `user-${userId}` }).filter(
      (e) => e.type === 'UserExternalIdentityBound',
    );
  /** A browser that asked for a state and comes back from GitHub with `code`. */
  async function githubCallback(agent: request.Agent, code: string, stateOverride?: string) {
    const state = await agent.get('/api/oauth/state');
    expect(state.body).toMatchObject({ success: true });
    expect(typeof state.body.data).toBe('string');
    return zh(
      agent.get('/api/oauth/github').query({ code, state: stateOverride ?? state.body.data }),
    );
  }

  describe('GitHub', () => {
    it('is refused while GitHub sign-in is off, then configured by root', async () => {
      const res = await githubCallback(request.agent(t.url), 'any');
      expect(res.body).toEqual({ success: false, message: '管理员未开启通过 GitHub 登录以及注册' });
      await setOption('GitHubClientId', GITHUB_CLIENT_ID);
      await setOption('GitHubClientSecret', GITHUB_SECRET);
      await setOption('GitHubOAuthEnabled', 'true');
      const status = (await request(t.url).get('/api/status')).body.data;
      expect(status).toMatchObject({
        github_oauth: true,
        github_client_id: GITHUB_CLIENT_ID,
        github_authorize_url: `${github.url}/login/oauth/authorize`,
      });
    });

    let octoId = 0;
    it('registers a new user from the GitHub account and signs it in', async () => {
      githubCodes.set('code-octo-1', {
        id: 1001,
        login: 'octocat',
        name: 'The Octocat',
        email: null,
      });
      const browser = request.agent(t.url);
      const res = await githubCallback(browser, 'code-octo-1');
      expect(res.body).toMatchObject({
        success: true,
        data: { username: 'octocat', display_name: 'The Octocat', role: 1, status: 1 },
      });
      expect(String(res.headers['set-cookie'] ?? '')).toMatch(/session=/);
      octoId = res.body.data.id as number;
      expect(await self(browser, octoId)).toMatchObject({ username: 'octocat', github_id: '1001' });
      const registered = readStoredEvents(t.dataDir, { streamId: `user-${octoId}` });
      expect(registered.map((e) => e.type)).toEqual(
        expect.arrayContaining(['UserRegistered', 'UserExternalIdentityBound']),
      );
      expect(registered.find((e) => e.type === 'UserRegistered')?.data['source']).toBe('github');
      expect(boundEvents(octoId)[0]?.data).toEqual({
        userId: octoId,
        provider: 'github',
        externalId: '1001',
      });
      expect(readStoredEvents(t.dataDir, { streamId: 'githubid-1001' })[0]?.data).toEqual({
        value: '1001',
        ownerId: octoId,
      });
    });

    it('signs the bound user in again on a later visit (no second account)', async () => {
      githubCodes.set('code-octo-2', { id: 1001, login: 'octocat', name: null, email: null });
      const users = readStoredEvents(t.dataDir, { type: 'UserRegistered' }).length;
      const res = await githubCallback(request.agent(t.url), 'code-octo-2');
      expect(res.body).toMatchObject({ success: true, data: { id: octoId, username: 'octocat' } });
      expect(readStoredEvents(t.dataDir, { type: 'UserRegistered' })).toHaveLength(users);
    });

    it('refuses a wrong state, a state without its cookie and a replayed state, asking GitHub nothing', async () => {
      githubCodes.set('code-state', { id: 1002, login: 'stately', name: null, email: null });
      const calls = github.calls.length;
      const events = readStateEvents(t.dataDir).length;
      const refused = { success: false, message: '登录状态无效或已过期，请重新发起登录' };
      expect((await githubCallback(request.agent(t.url), 'code-state', 'forged')).body).toEqual(
        refused,
      );
      // A state handed to another browser: this one has no cookie for it.
      const other = await request.agent(t.url).get('/api/oauth/state');
      expect(
        (
          await zh(
            request(t.url)
              .get('/api/oauth/github')
              .query({ code: 'code-state', state: other.body.data }),
          )
        ).body,
      ).toEqual(refused);
      expect((await zh(request(t.url).get('/api/oauth/github'))).body).toEqual(refused);
      // Replay: the same cookie and state a second time, after a successful sign-in.
      const first = await request(t.url).get('/api/oauth/state');
      const cookie = (first.headers['set-cookie'] as unknown as string[])
        .find((c) => c.startsWith('oauth_state='))!
        .split(';')[0]!;
      const ok = await zh(
        request(t.url)
          .get('/api/oauth/github')
          .set('Cookie', cookie)
          .query({ code: 'code-state', state: first.body.data }),
      );
      expect(ok.body).toMatchObject({ success: true, data: { username: 'stately' } });
      const callsAfterOk = github.calls.length;
      githubCodes.set('code-state-2', { id: 1002, login: 'stately', name: null, email: null });
      const replay = await zh(
        request(t.url)
          .get('/api/oauth/github')
          .set('Cookie', cookie)
          .query({ code: 'code-state-2', state: first.body.data }),
      );
      expect(replay.body).toEqual(refused);
      expect(github.calls.length).toBe(callsAfterOk);
      expect(callsAfterOk - calls).toBe(2); // only the successful one: token + user
      expect(readStateEvents(t.dataDir).length).toBeGreaterThan(events);
    });

    it('refuses a replayed code on our side, before GitHub is asked', async () => {
      githubCodes.set('code-once', { id: 1003, login: 'once', name: null, email: null });
      expect((await githubCallback(request.agent(t.url), 'code-once')).body.success).toBe(true);
      const calls = github.calls.length;
      const events = readStateEvents(t.dataDir).length;
      const replay = await githubCallback(request.agent(t.url), 'code-once');
      expect(replay.body).toEqual({ success: false, message: '授权码已使用，请重新发起登录' });
      expect(github.calls.length).toBe(calls);
      expect(readStateEvents(t.dataDir)).toHaveLength(events);
    });

    it('a code GitHub refuses signs nobody in and changes nothing', async () => {
      const events = readStateEvents(t.dataDir).length;
      const res = await githubCallback(request.agent(t.url), 'code-unknown');
      expect(res.body).toEqual({ success: false, message: '无法通过 GitHub 验证身份，请稍后重试' });
      expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/session=/);
      expect(readStateEvents(t.dataDir)).toHaveLength(events);
    });

    it('makes a taken login unique and keeps the display name within the rules', async () => {
      await registerAndLogin(t.url, 'alice');
      githubCodes.set('code-alice', {
        id: 1004,
        login: 'alice',
        name: 'A very long display name indeed',
        email: 'alice@example.com',
      });
      const res = await githubCallback(request.agent(t.url), 'code-alice');
      expect(res.body.success).toBe(true);
      expect(res.body.data.username).toMatch(/^alice_\d{4}$/);
      expect(res.body.data.display_name).toBe('A very long display');
    });

    let bob: ConsoleClient;
    it('binds the GitHub account of a signed-in user (message "bind") and shows it', async () => {
      bob = await registerAndLogin(t.url, 'bob');
      githubCodes.set('code-bob', { id: 2002, login: 'bob-gh', name: null, email: null });
      const state = await bob.get('/api/oauth/state');
      const res = await bob
        .get('/api/oauth/github')
        .query({ code: 'code-bob', state: state.body.data });
      expect(res.body).toEqual({ success: true, message: 'bind' });
      expect((await bob.get('/api/user/self')).body.data).toMatchObject({
        username: 'bob',
        github_id: '2002',
      });
      expect(boundEvents(bob.userId).map((e) => e.data)).toEqual([
        { userId: bob.userId, provider: 'github', externalId: '2002' },
      ]);
      expect(boundEvents(bob.userId)[0]?.metadata['actor']).toMatchObject({
        kind: 'user',
        id: bob.userId,
      });
      // Root sees it in the users list too.
      const listed = (await root.get(`/api/user/${bob.userId}`)).body.data;
      expect(listed.github_id).toBe('2002');
    });

    it('refuses binding an id bound to someone else, and a second id for the same provider', async () => {
      const carol = await registerAndLogin(t.url, 'carol');
      githubCodes.set('code-carol', { id: 2002, login: 'bob-gh', name: null, email: null });
      const events = readStateEvents(t.dataDir).length;
      let state = await carol.get('/api/oauth/state');
      let res = await zh(
        carol.get('/api/oauth/github').query({ code: 'code-carol', state: state.body.data }),
      );
      expect(res.body).toEqual({ success: false, message: '该 GitHub 账户已被绑定' });
      expect(boundEvents(carol.userId)).toEqual([]);
      expect(readStateEvents(t.dataDir)).toHaveLength(events);
      expect((await carol.get('/api/user/self')).body.data.github_id).toBe('');

      githubCodes.set('code-bob-2', { id: 3003, login: 'bob-alt', name: null, email: null });
      state = await bob.get('/api/oauth/state');
      res = await zh(
        bob.get('/api/oauth/github').query({ code: 'code-bob-2', state: state.body.data }),
      );
      expect(res.body).toEqual({ success: false, message: '当前账户已绑定另一个 github 账户' });
      expect(readStoredEvents(t.dataDir, { streamId: 'githubid-3003' })).toEqual([]);
      expect(readStateEvents(t.dataDir)).toHaveLength(events);
    });

    it('a state asked for anonymously does not bind for a session that appears later', async () => {
      githubCodes.set('code-switch', { id: 4004, login: 'switch', name: null, email: null });
      const anonymous = await request(t.url).get('/api/oauth/state');
      const cookie = (anonymous.headers['set-cookie'] as unknown as string[])
        .find((c) => c.startsWith('oauth_state='))!
        .split(';')[0]!;
      const res = await bob
        .get('/api/oauth/github')
        .set('Cookie', cookie)
        .query({ code: 'code-switch', state: anonymous.body.data });
      expect(res.body.success).toBe(false);
      expect(boundEvents(bob.userId)).toHaveLength(1);
    });

    it('refuses registering through GitHub while registration is off; bound users still sign in', async () => {
      await setOption('RegisterEnabled', 'false');
      try {
        githubCodes.set('code-new', { id: 5005, login: 'newcomer', name: null, email: null });
        const events = readStateEvents(t.dataDir).length;
        const res = await githubCallback(request.agent(t.url), 'code-new');
        expect(res.body).toEqual({ success: false, message: '管理员关闭了新用户注册' });
        expect(readStateEvents(t.dataDir)).toHaveLength(events);
        githubCodes.set('code-octo-3', { id: 1001, login: 'octocat', name: null, email: null });
        const again = await githubCallback(request.agent(t.url), 'code-octo-3');
        expect(again.body).toMatchObject({ success: true, data: { id: octoId } });
      } finally {
        await setOption('RegisterEnabled', 'true');
      }
    });

    it('a disabled user bound to GitHub is refused', async () => {
      const manage = await root.post('/api/user/manage', { id: octoId, action: 'disable' });
      expect(manage.body.success).toBe(true);
      githubCodes.set('code-octo-4', { id: 1001, login: 'octocat', name: null, email: null });
      const res = await githubCallback(request.agent(t.url), 'code-octo-4');
      expect(res.body).toEqual({ success: false, message: '用户已被封禁' });
      await root.post('/api/user/manage', { id: octoId, action: 'enable' });
    });
  });

  describe('WeChat', () => {
    it('is refused while off; then an empty code is refused without calling the WeChat server', async () => {
      expect((await zh(request(t.url).get('/api/oauth/wechat').query({ code: 'x' }))).body).toEqual(
        {
          success: false,
          message: '管理员未开启通过微信登录以及注册',
        },
      );
      await setOption('WeChatServerAddress', `${wechat.url}/`);
      await setOption('WeChatServerToken', WECHAT_TOKEN);
      await setOption('WeChatAuthEnabled', 'true');
      for (const query of [{}, { code: '' }, { code: '   ' }]) {
        const res = await zh(request(t.url).get('/api/oauth/wechat').query(query));
        expect(res.body).toEqual({ success: false, message: '请输入微信验证码' });
      }
      expect(wechat.calls).toEqual([]);
    });

    let wxUserId = 0;
    it('signs in (registering) with a code the WeChat server knows, with the token as Authorization', async () => {
      wechatCodes.set('111111', 'wx-openid-alpha');
      const browser = request.agent(t.url);
      const res = await zh(browser.get('/api/oauth/wechat').query({ code: '111111' }));
      expect(res.body).toMatchObject({
        success: true,
        data: { role: 1, display_name: 'WeChat User' },
      });
      expect(res.body.data.username).toMatch(/^wechat_\d{8}$/);
      wxUserId = res.body.data.id as number;
      expect(await self(browser, wxUserId)).toMatchObject({ wechat_id: 'wx-openid-alpha' });
      expect(wechat.calls).toEqual(['GET /api/wechat/user?code=111111']);
    });

    it('refuses a wrong code and a replayed one', async () => {
      const wrong = await zh(request(t.url).get('/api/oauth/wechat').query({ code: '999999' }));
      expect(wrong.body).toEqual({ success: false, message: '验证码错误或已过期' });
      const calls = wechat.calls.length;
      const replay = await zh(request(t.url).get('/api/oauth/wechat').query({ code: '111111' }));
      expect(replay.body).toEqual({ success: false, message: '授权码已使用，请重新发起登录' });
      expect(wechat.calls.length).toBe(calls);
    });

    it('binds for a signed-in user; an id bound elsewhere is refused; anonymous binding is 401', async () => {
      const dave = await registerAndLogin(t.url, 'dave');
      expect((await dave.get('/api/oauth/wechat/bind').query({ code: '' })).body.success).toBe(
        false,
      );
      wechatCodes.set('222222', 'wx-openid-dave');
      const res = await dave.get('/api/oauth/wechat/bind').query({ code: '222222' });
      expect(res.body).toEqual({ success: true, message: 'bind' });
      expect((await dave.get('/api/user/self')).body.data.wechat_id).toBe('wx-openid-dave');
      expect(boundEvents(dave.userId).map((e) => e.data['provider'])).toEqual(['wechat']);

      const erin = await registerAndLogin(t.url, 'erin');
      wechatCodes.set('333333', 'wx-openid-alpha');
      const taken = await zh(erin.get('/api/oauth/wechat/bind').query({ code: '333333' }));
      expect(taken.body).toEqual({ success: false, message: '该微信账号已被绑定' });
      expect(boundEvents(erin.userId)).toEqual([]);

      wechatCodes.set('444444', 'wx-openid-anon');
      const anonymous = await request(t.url)
        .get('/api/oauth/wechat/bind')
        .query({ code: '444444' });
      expect(anonymous.status).toBe(401);
    });
  });

  describe('Telegram', () => {
    const widget = (over: Record<string, string> = {}) =>
      telegramData({
        id: '777000',
        first_name: 'Tele',
        last_name: 'Gram',
        username: 'telegrammer',
        photo_url: 'https://t.me/i/userpic/320/x.jpg',
        auth_date: String(nowS() - 60),
        ...over,
      });

    it('is refused while off', async () => {
      await setOption('TelegramBotName', 'tollgate_bot');
      const res = await zh(request(t.url).get('/api/oauth/telegram/login').query(widget()));
      expect(res.body).toEqual({
        success: false,
        message: '管理员未开启通过 Telegram 登录以及注册',
      });
      await setOption('TelegramBotToken', TELEGRAM_TOKEN);
      await setOption('TelegramOAuthEnabled', 'true');
      expect((await request(t.url).get('/api/status')).body.data).toMatchObject({
        telegram_oauth: true,
        telegram_bot_name: 'tollgate_bot',
      });
    });

    it('signs in with widget data whose hash checks out (lang is not signed)', async () => {
      const browser = request.agent(t.url);
      const res = await zh(
        browser.get('/api/oauth/telegram/login').query({ ...widget(), lang: 'zh-CN' }),
      );
      expect(res.body).toMatchObject({
        success: true,
        data: { username: 'telegrammer', display_name: 'Tele Gram' },
      });
      expect(await self(browser, res.body.data.id)).toMatchObject({ telegram_id: '777000' });
    });

    it('refuses a bad hash, altered data, a stale auth_date and a hash made with another bot token', async () => {
      const events = readStateEvents(t.dataDir).length;
      const login = (query: object) =>
        zh(request(t.url).get('/api/oauth/telegram/login').query(query));
      const invalid = { success: false, message: 'Telegram 登录数据校验失败' };
      expect((await login({ ...widget(), hash: '0'.repeat(64) })).body).toEqual(invalid);
      expect((await login({ ...widget(), hash: 'nothex' })).body).toEqual(invalid);
      expect((await login({ ...widget(), id: '1' })).body).toEqual(invalid);
      expect(
        (await login(telegramData({ id: '5', auth_date: String(nowS()) }, 'other:token'))).body,
      ).toEqual(invalid);
      expect((await login({})).body).toEqual(invalid);
      // A day and a bit old: signed correctly, but too old.
      expect((await login(widget({ auth_date: String(nowS() - 86_400 - 120) }))).body).toEqual({
        success: false,
        message: 'Telegram 登录数据已过期，请重新登录',
      });
      expect((await login(widget({ auth_date: String(nowS() + 3600) }))).body.success).toBe(false);
      expect(readStateEvents(t.dataDir)).toHaveLength(events);
    });

    it('binds for a signed-in user and refuses an id bound elsewhere', async () => {
      const frank = await registerAndLogin(t.url, 'frank');
      const res = await frank
        .get('/api/oauth/telegram/bind')
        .query(widget({ id: '888000', username: 'frank_tg' }));
      expect(res.body).toEqual({ success: true, message: 'bind' });
      expect((await frank.get('/api/user/self')).body.data.telegram_id).toBe('888000');
      const taken = await zh(frank.get('/api/oauth/telegram/bind').query(widget()));
      expect(taken.body.success).toBe(false);
      const gina = await registerAndLogin(t.url, 'gina');
      const conflict = await zh(gina.get('/api/oauth/telegram/bind').query(widget()));
      expect(conflict.body).toEqual({ success: false, message: '该 Telegram 账户已被绑定' });
      expect(boundEvents(gina.userId)).toEqual([]);
    });
  });

  it('no client secret, server token or bot token in answers, events, read models or logs', async () => {
    const options = JSON.stringify((await root.get('/api/option/')).body);
    const status = JSON.stringify((await request(t.url).get('/api/status')).body);
    const events = readStoredEvents(t.dataDir)
      .map((e) => e.rawData + e.rawMetadata)
      .join('\n');
    const readModels = allSqliteText(join(t.dataDir, 'read.sqlite'));
    for (const secret of [...SECRETS, 'gho_mock_1']) {
      expect([secret, options.includes(secret)]).toEqual([secret, false]);
      expect([secret, status.includes(secret)]).toEqual([secret, false]);
      expect([secret, events.includes(secret)]).toEqual([secret, false]);
      expect([secret, readModels.includes(secret)]).toEqual([secret, false]);
      expect([secret, logged.some((line) => line.includes(secret))]).toEqual([secret, false]);
    }
    // The provider calls that failed were logged (without their secrets).
    expect(logged.some((line) => line.includes('code exchange refused'))).toBe(true);
  });
});
