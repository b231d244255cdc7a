import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Logger } from '@nestjs/common';
import request from 'supertest';
import { SESSION_COOKIE } from '../../apps/gateway/src/auth/session-codec';
import { allSqliteText, readStateEvents, readStoredEvents } from '../support/e2e-helpers';
import { ForgingOidcProvider } from '../support/forging-oidc-provider';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/**
 * OpenID Connect against a REAL OpenID provider process (test/support/oidc-provider.mjs, the
 * `oidc-provider` package), in both flows: new-api's console (state from GET /api/oauth/state, the
 * authorize URL built from /api/status) and Tollgate's (the URL from GET /api/oauth/oidc/authorize,
 * with nonce and PKCE). The provider's login and consent pages are submitted over HTTP, the code
 * and state handed to GET /api/oauth/oidc; the id_token the provider signs is verified. Tokens no
 * real provider would sign come from a forging provider (test/support/forging-oidc-provider.ts).
 */

const CLIENT_ID = 'tollgate-console';
const CLIENT_SECRET = 'oidc-provider-secret-6f2a91';

async function startProvider(redirectUri: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(__dirname, '../support/oidc-provider.mjs'), CLIENT_ID, redirectUri],
    {
      env: { ...process.env, OIDC_CLIENT_SECRET: CLIENT_SECRET },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`oidc provider exited with ${code}`)));
    lines.once('line', (line) => resolve((JSON.parse(line) as { url: string }).url));
  });
  return { url, child };
}

/** A browser at the provider: its own cookies, redirects followed by hand. */
class ProviderBrowser {
  private readonly cookies = new Map<string, string>();

  async go(url: string, form?: Record<string, string>): Promise<Response> {
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        Cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(form ? { 'Content-Type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return response;
  }

  /**
   * From the authorize URL to the redirect back to the console: the development login page gets
   * `login` (it becomes the subject), the consent page is confirmed. Returns the redirect's URL.
   */
  async authorize(authorizeUrl: string, login: string, redirectUri: string): Promise<URL> {
    let url = authorizeUrl;
    let form: Record<string, string> | undefined;
    for (let hop = 0; hop < 12; hop += 1) {
      const response = await this.go(url, form);
      form = undefined;
      const location = response.headers.get('location');
      if (location) {
        const next = new URL(location, url);
        if (next.toString().startsWith(redirectUri)) return next;
        url = next.toString();
        continue;
      }
      const html = await response.text();
      expect(response.status).toBe(200);
      const action = /action="([^"]+)"/.exec(html)?.[1];
      const prompt = /name="prompt" value="([a-z]+)"/.exec(html)?.[1];
      if (!action || !prompt) throw new Error(`unexpected provider page: ${html.slice(0, 200)}`);
      url = new URL(action, url).toString();
      form = prompt === 'login' ? { prompt, login, password: 'any' } : { prompt };
    }
    throw new Error('the provider never redirected back');
  }
}

describe('OpenID Connect with a real provider (new-api oidc.* options)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let provider: { url: string; child: ChildProcess };
  let redirectUri: string;
  const logged: string[] = [];
  const spies: jest.SpyInstance[] = [];

  beforeAll(async () => {
    for (const level of ['log', 'warn', 'error', 'debug', 'verbose'] as const)
      spies.push(
        jest.spyOn(Logger.prototype, level).mockImplementation(function (...args: unknown[]) {
          logged.push(args.map(String).join(' '));
        }),
      );
    t = await startTestApp();
    redirectUri = `${t.url}/oauth/oidc`;
    provider = await startProvider(redirectUri);
    root = await loginRoot(t.url);
  });

  afterAll(async () => {
    provider?.child.kill('SIGTERM');
    await t?.close();
    for (const spy of spies) spy.mockRestore();
  });

  const setOption = async (key: string, value: string) => {
    const res = await root.put('/api/option/', { key, value });
    expect(res.body).toMatchObject({ success: true });
  };
  const zh = (test: request.Test) => test.set('Accept-Language', 'zh-CN');

  /** The provider's redirect back, handed to the callback as the console's page does. */
  const callback = (agent: request.Agent, back: URL) =>
    zh(
      agent
        .get('/api/oauth/oidc')
        .query({ code: back.searchParams.get('code'), state: back.searchParams.get('state') }),
    );

  /**
   * Tollgate's console: the server's authorization URL; `tamper` changes it on the way to the
   * provider (as an attacker in the middle of the flow would).
   */
  async function signInOurs(
    agent: request.Agent,
    login: string,
    tamper: (url: URL) => void = () => {},
  ) {
    const started = await agent.get('/api/oauth/oidc/authorize');
    expect(started.body).toMatchObject({ success: true, data: expect.any(String) });
    const url = new URL(started.body.data as string);
    tamper(url);
    return callback(
      agent,
      await new ProviderBrowser().authorize(url.toString(), login, redirectUri),
    );
  }

  /** A callback that signed nobody in: no session cookie came with it. */
  const noSession = (res: request.Response) =>
    expect(String(res.headers['set-cookie'] ?? '')).not.toContain(`${SESSION_COOKIE}=`);

  /** new-api's console: a state, then the URL it builds from /api/status (web/src/components/utils.js). */
  async function signInAt(agent: request.Agent, login: string, state?: string) {
    const issued = await agent.get('/api/oauth/state');
    expect(issued.body).toMatchObject({ success: true, data: expect.any(String) });
    const status = (await request(t.url).get('/api/status')).body.data;
    const url =
      `${status.oidc_authorization_endpoint}?client_id=${status.oidc_client_id}` +
      `&redirect_uri=${redirectUri}&response_type=code&scope=openid profile email` +
      `&state=${issued.body.data}`;
    const back = await new ProviderBrowser().authorize(url, login, redirectUri);
    expect(back.searchParams.get('state')).toBe(issued.body.data);
    const code = back.searchParams.get('code')!;
    expect(code).toBeTruthy();
    return zh(agent.get('/api/oauth/oidc').query({ code, state: state ?? issued.body.data }));
  }

  const boundEvents = (userId: number) =>
    readStoredEvents(t.dataDir, { streamId: `user-${userId}` }).filter(
      (e) => e.type === 'UserExternalIdentityBound',
    );

  it('is configured with the oidc.* keys: status offers it, the secret is never listed', async () => {
    const off = await zh(request(t.url).get('/api/oauth/oidc').query({ code: 'c', state: 's' }));
    expect(off.body).toEqual({ success: false, message: '管理员未开启通过 OIDC 登录以及注册' });
    const early = await zh(root.put('/api/option/', { key: 'oidc.enabled', value: 'true' }));
    expect(early.body).toEqual({
      success: false,
      message: '无法启用 OIDC 登录，请先填入 Client ID、Client Secret 以及 Well-Known URL！',
    });
    await setOption('ServerAddress', t.url);
    await setOption('oidc.client_id', CLIENT_ID);
    await setOption('oidc.client_secret', CLIENT_SECRET);
    // The endpoints alone are not enough: the id_token's issuer and keys are in the document.
    await setOption('oidc.authorization_endpoint', `${provider.url}/auth`);
    await setOption('oidc.token_endpoint', `${provider.url}/token`);
    expect((await root.put('/api/option/', { key: 'oidc.enabled', value: 'true' })).body).toEqual(
      expect.objectContaining({ success: false }),
    );
    await setOption('oidc.authorization_endpoint', '');
    await setOption('oidc.token_endpoint', '');
    await setOption('oidc.well_known', `${provider.url}/.well-known/openid-configuration`);
    await setOption('oidc.enabled', 'true');
    const status = (await request(t.url).get('/api/status')).body.data;
    expect(status).toMatchObject({
      oidc_enabled: true,
      oidc_client_id: CLIENT_ID,
      // Only well_known is set: the server read the endpoint from the provider's document.
      oidc_authorization_endpoint: `${provider.url}/auth`,
    });
    expect(status).not.toHaveProperty('oidc_display_name');
    const listed = (await root.get('/api/option/')).body.data as Array<{ key: string }>;
    expect(listed.map((o) => o.key)).toEqual(
      expect.arrayContaining(['oidc.enabled', 'oidc.client_id', 'oidc.well_known']),
    );
    expect(listed.map((o) => o.key)).not.toContain('oidc.client_secret');
  });

  it('registers a new user through the provider and signs it in; the second visit is the same user', async () => {
    const browser = request.agent(t.url);
    const first = await signInAt(browser, 'alice');
    expect(first.body).toMatchObject({ success: true, data: { username: 'alice' } });
    const id = first.body.data.id as number;
    const self = await browser.get('/api/user/self').set('New-Api-User', String(id));
    expect(self.body.data).toMatchObject({ id, oidc_id: 'alice', display_name: 'Name of alice' });
    const registered = readStoredEvents(t.dataDir, { streamId: `user-${id}` })[0]!;
    expect(registered).toMatchObject({ type: 'UserRegistered', data: { source: 'oidc' } });
    expect(boundEvents(id).map((e) => e.data)).toEqual([
      { userId: id, provider: 'oidc', externalId: 'alice' },
    ]);
    expect(readStoredEvents(t.dataDir, { streamId: 'oidcsub-alice' })).toHaveLength(1);

    const again = await signInAt(request.agent(t.url), 'alice');
    expect(again.body).toMatchObject({ success: true, data: { id, username: 'alice' } });
    expect(
      readStoredEvents(t.dataDir, { type: 'UserRegistered' }).filter(
        (e) => e.data['source'] === 'oidc',
      ),
    ).toHaveLength(1);
  });

  it("Tollgate's console: the server's URL carries state, nonce and an S256 challenge; it signs in", async () => {
    const agent = request.agent(t.url);
    const started = await agent.get('/api/oauth/oidc/authorize');
    const url = new URL(started.body.data as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${provider.url}/auth`);
    const params = Object.fromEntries(url.searchParams);
    expect(params).toEqual({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: redirectUri,
      scope: 'openid profile email',
      state: expect.stringMatching(/^[\w-]{32}$/),
      nonce: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      code_challenge_method: 'S256',
    });
    // The browser holds the signed state only: neither the verifier nor the nonce are in it.
    const cookie = String(started.headers['set-cookie']).match(/oauth_state=([^.;]+)/)![1]!;
    expect(Object.keys(JSON.parse(Buffer.from(cookie, 'base64url').toString()))).toEqual([
      'state',
      'userId',
      'expiresAt',
      'pkce',
    ]);
    // The provider checks the PKCE verifier against the challenge: the sign-in went through it.
    const back = await new ProviderBrowser().authorize(url.toString(), 'frank', redirectUri);
    const res = await callback(agent, back);
    expect(res.body).toMatchObject({ success: true, data: { username: 'frank' } });
    expect(
      (await agent.get('/api/user/self').set('New-Api-User', String(res.body.data.id))).body,
    ).toMatchObject({ success: true, data: { oidc_id: 'frank' } });
  });

  it('our flow refuses an id_token with another nonce, a code of another challenge, a stolen code', async () => {
    const before = readStateEvents(t.dataDir).length;
    const agent = request.agent(t.url);
    const wrongNonce = await signInOurs(agent, 'grace', (url) =>
      url.searchParams.set('nonce', 'a-nonce-of-the-attacker-choosing'),
    );
    expect(wrongNonce.body).toEqual({
      success: false,
      message: 'OIDC 获取 Token 失败，请检查设置！',
    });
    noSession(wrongNonce);
    // A code bound to another verifier's challenge: the provider refuses our verifier.
    const wrongChallenge = await signInOurs(agent, 'grace', (url) =>
      url.searchParams.set('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM'),
    );
    expect(wrongChallenge.body).toEqual({
      success: false,
      message: 'OIDC 获取 Token 失败，请检查设置！',
    });
    noSession(wrongChallenge);
    // A code of our flow stolen on its way back, redeemed with the thief's state-only flow: the
    // provider wants the verifier of its challenge, which that flow does not send.
    const started = await request.agent(t.url).get('/api/oauth/oidc/authorize');
    const stolen = await new ProviderBrowser().authorize(started.body.data, 'grace', redirectUri);
    const thief = request.agent(t.url);
    const state = (await thief.get('/api/oauth/state')).body.data as string;
    const redeemed = await zh(
      thief.get('/api/oauth/oidc').query({ code: stolen.searchParams.get('code'), state }),
    );
    expect(redeemed.body).toEqual({
      success: false,
      message: 'OIDC 获取 Token 失败，请检查设置！',
    });
    noSession(redeemed);
    expect(readStateEvents(t.dataDir).length).toBe(before);
    expect(readStoredEvents(t.dataDir, { streamId: 'oidcsub-grace' })).toEqual([]);
    expect(logged.join('\n')).toContain('id_token refused: nonce');
  });

  it('binds the subject to a signed-in user (message "bind"); a subject bound elsewhere is refused', async () => {
    const bob = await registerAndLogin(t.url, 'bob_oidc');
    const bound = await signInAt(bob.agent, 'bob-sso');
    expect(bound.body).toEqual({ success: true, message: 'bind' });
    expect((await bob.get('/api/user/self')).body.data.oidc_id).toBe('bob-sso');
    expect(boundEvents(bob.userId).map((e) => e.data)).toEqual([
      { userId: bob.userId, provider: 'oidc', externalId: 'bob-sso' },
    ]);
    expect(boundEvents(bob.userId)[0]!.metadata['actor']).toMatchObject({
      kind: 'user',
      id: bob.userId,
    });

    const carol = await registerAndLogin(t.url, 'carol_oidc');
    const taken = await signInAt(carol.agent, 'alice');
    expect(taken.body).toEqual({ success: false, message: '该 OIDC 账户已被绑定' });
    expect((await carol.get('/api/user/self')).body.data.oidc_id).toBe('');
    expect(boundEvents(carol.userId)).toEqual([]);
  });

  it('refuses a wrong or missing state and signs nobody in', async () => {
    const before = readStateEvents(t.dataDir).length;
    const wrong = await signInAt(request.agent(t.url), 'mallory', 'not-the-state');
    expect(wrong.body).toEqual({
      success: false,
      message: '登录状态无效或已过期，请重新发起登录',
    });
    // A callback without the state cookie (another browser) is refused the same way.
    const agent = request.agent(t.url);
    const issued = (await agent.get('/api/oauth/state')).body.data as string;
    const stranger = await zh(
      request(t.url).get('/api/oauth/oidc').query({ code: 'x', state: issued }),
    );
    expect(stranger.body.success).toBe(false);
    const missing = await zh(agent.get('/api/oauth/oidc').query({ code: 'x' }));
    expect(missing.body).toEqual({
      success: false,
      message: '登录状态无效或已过期，请重新发起登录',
    });
    expect(readStateEvents(t.dataDir).length).toBe(before);
    expect(readStoredEvents(t.dataDir, { streamId: 'oidcsub-mallory' })).toEqual([]);
  });

  it('refuses a user info without email, as new-api does', async () => {
    const res = await signInAt(request.agent(t.url), 'no-email');
    expect(res.body).toEqual({ success: false, message: 'OIDC 获取用户信息为空！请检查设置！' });
    expect(readStoredEvents(t.dataDir, { streamId: 'oidcsub-no-email' })).toEqual([]);
  });

  it("works with the endpoints new-api's console saves; without well_known no id_token can be checked", async () => {
    await setOption('oidc.authorization_endpoint', `${provider.url}/auth`);
    await setOption('oidc.token_endpoint', `${provider.url}/token`);
    await setOption('oidc.user_info_endpoint', `${provider.url}/me`);
    const res = await signInAt(request.agent(t.url), 'dave');
    expect(res.body).toMatchObject({ success: true, data: { username: 'dave' } });

    // Options enabled before well_known was required: the sign-in is refused, not unverified.
    const wellKnown = `${provider.url}/.well-known/openid-configuration`;
    await setOption('oidc.well_known', '');
    const unverifiable = await signInAt(request.agent(t.url), 'dave');
    expect(unverifiable.body).toEqual({
      success: false,
      message: '获取 OIDC 配置失败，请检查网络状况和 Well-Known URL 是否正确',
    });
    await setOption('oidc.well_known', wellKnown);

    await setOption('oidc.client_secret', 'not-the-secret');
    const refused = await signInAt(request.agent(t.url), 'erin');
    expect(refused.body).toEqual({ success: false, message: 'OIDC 获取 Token 失败，请检查设置！' });
    await setOption('oidc.client_secret', CLIENT_SECRET);
  });

  describe('id_tokens a provider must not have signed (a forging provider)', () => {
    let forging: ForgingOidcProvider;

    beforeAll(async () => {
      forging = await ForgingOidcProvider.start(CLIENT_ID, CLIENT_SECRET);
      for (const key of ['authorization', 'token', 'user_info'])
        await setOption(`oidc.${key}_endpoint`, '');
      await setOption('oidc.well_known', forging.wellKnown);
    });
    afterAll(() => forging?.close());

    let codes = 0;
    /** new-api's console's callback with a fresh state and code; the code names the subject. */
    async function callbackWith(subject: string) {
      const agent = request.agent(t.url);
      const state = (await agent.get('/api/oauth/state')).body.data as string;
      return zh(agent.get('/api/oauth/oidc').query({ code: `${subject}.${++codes}`, state }));
    }

    it('an honest token of that provider signs in (the refusals below are the forgeries)', async () => {
      const res = await callbackWith('honest-henry');
      expect(res.body).toMatchObject({ success: true, data: { username: 'honest-henry' } });
    });

    const nowS = () => Math.floor(Date.now() / 1000);
    it.each([
      ['signed with another key', { foreignKey: true }, 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
      // Issued five minutes ago (fresh enough), expired two minutes ago (beyond the tolerance).
      ['expired', { claims: { iat: nowS() - 300, exp: nowS() - 120 } }, 'ERR_JWT_EXPIRED exp'],
      ['for another client', { claims: { aud: 'another-client' } }, 'VALIDATION_FAILED aud'],
      ['from another issuer', { claims: { iss: 'https://evil.example' } }, 'VALIDATION_FAILED iss'],
      ['missing', { noIdToken: true }, 'token answer without an id_token'],
    ])('refuses an id_token %s: no session, no event', async (_what, forgery, reason) => {
      const before = readStateEvents(t.dataDir).length;
      const logFrom = logged.length;
      forging.forgeNext(forgery);
      const res = await callbackWith('forged-fiona');
      expect(res.body).toEqual({ success: false, message: 'OIDC 获取 Token 失败，请检查设置！' });
      noSession(res);
      expect(readStateEvents(t.dataDir).length).toBe(before);
      expect(readStoredEvents(t.dataDir, { streamId: 'oidcsub-forged-fiona' })).toEqual([]);
      // Refused for that reason, and the log names it without the token.
      expect(logged.slice(logFrom).join('\n')).toContain(reason);
      expect(logged.slice(logFrom).join('\n')).not.toMatch(/eyJ[\w-]+\.eyJ/);
    });

    it("refuses user info about another subject than the id_token's, and a failing user info", async () => {
      const before = readStateEvents(t.dataDir).length;
      forging.forgeNext({ userInfoSub: 'honest-henry' });
      const other = await callbackWith('forged-fiona');
      expect(other.body).toEqual({
        success: false,
        message: 'OIDC 获取用户信息失败！请检查设置！',
      });
      forging.forgeNext({ userInfoStatus: 500 });
      const failing = await callbackWith('forged-fiona');
      expect(failing.body).toEqual({
        success: false,
        message: 'OIDC 获取用户信息失败！请检查设置！',
      });
      expect(readStateEvents(t.dataDir).length).toBe(before);
    });
  });

  it('the client secret is never in answers, events, read models or logs', async () => {
    const answers = JSON.stringify([
      (await root.get('/api/option/')).body,
      (await request(t.url).get('/api/status')).body,
    ]);
    expect(answers).not.toContain(CLIENT_SECRET);
    for (const file of ['events.sqlite', 'read.sqlite'])
      expect(allSqliteText(join(t.dataDir, file))).not.toContain(CLIENT_SECRET);
    expect(logged.join('\n')).not.toContain(CLIENT_SECRET);
  });
});
