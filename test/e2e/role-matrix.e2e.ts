import type { Response } from 'supertest';
import { declaredRoutes } from '../support/declared-routes';
import {
  ConsoleClient,
  createAdmin,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

/**
 * Every /api route × (anonymous, ordinary, admin, root): the server enforces each role itself.
 * Anonymous on a protected route → 401; too low a role → 200 {success:false, 权限不足}; enough → never
 * an authorization message.
 */

type Who = 'anonymous' | 'ordinary' | 'admin' | 'root';
const LEVEL: Record<Who, number> = { anonymous: 0, ordinary: 1, admin: 10, root: 100 };
const WHO: readonly Who[] = ['anonymous', 'ordinary', 'admin', 'root'];

const FORBIDDEN = '无权进行此操作，权限不足';
/** The texts of every authentication/authorization refusal (zh-CN). */
const AUTH_REFUSALS = [
  '无权进行此操作，未登录且未提供 access token',
  '无权进行此操作，access token 无效',
  '无权进行此操作，未提供 New-Api-User',
  '无权进行此操作，New-Api-User 与登录用户不匹配',
  FORBIDDEN,
  '用户已被封禁',
  '未登录或登录已过期，请重新登录！',
];

interface Ctx {
  /** An ordinary user nobody signs in as: the harmless target of the admin routes. */
  targetId: number;
  unique(prefix: string): string;
}

interface Row {
  /** As declared by the controllers: `METHOD /path` with `:params`. */
  readonly route: string;
  /** Minimum role; 0 = public. */
  readonly min: 0 | 1 | 10 | 100;
  readonly path: (ctx: Ctx) => string;
  readonly body?: (ctx: Ctx) => object;
  /** Expected `success` when the role suffices (default true). */
  readonly succeeds?: (who: Who) => boolean;
  /** Needs its own session per role (the call ends the session or the account). */
  readonly fresh?: boolean;
  /** HTTP status when the role suffices (default 200; a webhook refuses a bad signature with 400). */
  readonly status?: number;
  /** The route answers plain text (a payment provider's callback): the expected text. */
  readonly text?: string;
  /** The route answers a document, not the envelope (the API reference): its content type. */
  readonly document?: string;
}

const ROWS: readonly Row[] = [
  // Public
  { route: 'GET /api/status', min: 0, path: () => '/api/status' },
  // A token's log: the key is the credential, not a session (none here: refused to everyone).
  {
    route: 'GET /api/log/token',
    min: 0,
    path: () => '/api/log/token?key=sk-matrix-unknown',
    succeeds: () => false,
  },
  { route: 'GET /api/notice', min: 0, path: () => '/api/notice' },
  { route: 'GET /api/about', min: 0, path: () => '/api/about' },
  {
    route: 'GET /api/openapi.json',
    min: 0,
    path: () => '/api/openapi.json',
    document: 'application/json',
  },
  { route: 'GET /api/docs', min: 0, path: () => '/api/docs', document: 'text/html' },
  { route: 'GET /api/pricing', min: 0, path: () => '/api/pricing' },
  { route: 'GET /api/home_page_content', min: 0, path: () => '/api/home_page_content' },
  // new-api's first-run wizard: public; a refused body changes nothing.
  { route: 'GET /api/setup', min: 0, path: () => '/api/setup' },
  {
    route: 'POST /api/setup',
    min: 0,
    path: () => '/api/setup',
    body: () => ({ username: 'root', password: 'password-one', confirmPassword: 'password-two' }),
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/login',
    min: 0,
    path: () => '/api/user/login',
    body: () => ({ username: 'target', password: 'wrong-password' }),
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/register',
    min: 0,
    path: () => '/api/user/register',
    body: (ctx) => ({
      username: ctx.unique('reg'),
      password: 'password123',
      password2: 'password123',
    }),
  },
  { route: 'GET /api/user/logout', min: 0, path: () => '/api/user/logout', fresh: true },
  // Third-party sign-in: the providers are off here, so only the state succeeds.
  { route: 'GET /api/oauth/state', min: 0, path: () => '/api/oauth/state' },
  ...(
    [
      ['GET /api/oauth/github', '/api/oauth/github?code=abc&state=xyz'],
      ['GET /api/oauth/wechat', '/api/oauth/wechat?code=123456'],
      ['GET /api/oauth/telegram/login', '/api/oauth/telegram/login?id=1&auth_date=1&hash=00'],
      ['GET /api/oauth/oidc', '/api/oauth/oidc?code=abc&state=xyz'],
      ['GET /api/oauth/oidc/authorize', '/api/oauth/oidc/authorize'],
      ['GET /api/oauth/linuxdo', '/api/oauth/linuxdo?code=abc&state=xyz'],
    ] as const
  ).map(([route, path]): Row => ({ route, min: 0, path: () => path, succeeds: () => false })),
  {
    route: 'GET /api/oauth/wechat/bind',
    min: 1,
    path: () => '/api/oauth/wechat/bind?code=123456',
    succeeds: () => false,
  },
  {
    route: 'GET /api/oauth/telegram/bind',
    min: 1,
    path: () => '/api/oauth/telegram/bind?id=1&auth_date=1&hash=00',
    succeeds: () => false,
  },
  // Mail: public, but without an SMTP server every call is refused.
  {
    route: 'GET /api/verification',
    min: 0,
    path: () => '/api/verification?email=matrix@example.com',
    succeeds: () => false,
  },
  {
    route: 'GET /api/reset_password',
    min: 0,
    path: () => '/api/reset_password?email=matrix@example.com',
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/reset',
    min: 0,
    path: () => '/api/user/reset',
    body: () => ({ email: 'matrix@example.com', token: 'not-a-token' }),
    succeeds: () => false,
  },
  {
    route: 'GET /api/oauth/email/bind',
    min: 1,
    path: () => '/api/oauth/email/bind?email=matrix@example.com&code=123456',
    succeeds: () => false,
  },
  // Any signed-in user
  { route: 'GET /api/user/self', min: 1, path: () => '/api/user/self' },
  {
    route: 'PUT /api/user/self',
    min: 1,
    path: () => '/api/user/self',
    body: () => ({ display_name: 'Matrix' }),
  },
  {
    route: 'DELETE /api/user/self',
    min: 1,
    path: () => '/api/user/self',
    fresh: true,
    succeeds: (who) => who !== 'root',
  },
  { route: 'GET /api/user/token', min: 1, path: () => '/api/user/token' },
  { route: 'GET /api/user/aff', min: 1, path: () => '/api/user/aff' },
  {
    route: 'POST /api/user/aff_transfer',
    min: 1,
    path: () => '/api/user/aff_transfer',
    body: () => ({ quota: 1 }),
    succeeds: () => false,
  },
  {
    route: 'PUT /api/user/setting',
    min: 1,
    path: () => '/api/user/setting',
    body: () => ({ notify_type: 'email', quota_warning_threshold: 1000 }),
  },
  // No SMTP server here: the test notice is tried and its failure answered.
  {
    route: 'POST /api/user/setting/test',
    min: 1,
    path: () => '/api/user/setting/test',
    succeeds: () => false,
  },
  { route: 'GET /api/user/notices', min: 1, path: () => '/api/user/notices?p=1' },
  { route: 'GET /api/user/models', min: 1, path: () => '/api/user/models' },
  { route: 'GET /api/user/self/groups', min: 1, path: () => '/api/user/self/groups' },
  // Public in new-api: the groups anyone may pick.
  { route: 'GET /api/user/groups', min: 0, path: () => '/api/user/groups' },
  { route: 'GET /api/models', min: 1, path: () => '/api/models' },
  // Administrators
  { route: 'GET /api/user', min: 10, path: () => '/api/user/?p=1' },
  { route: 'GET /api/user/search', min: 10, path: () => '/api/user/search?keyword=target' },
  { route: 'GET /api/user/:id', min: 10, path: (ctx) => `/api/user/${ctx.targetId}` },
  {
    route: 'POST /api/user',
    min: 10,
    path: () => '/api/user/',
    body: (ctx) => ({ username: ctx.unique('made'), password: 'password123' }),
  },
  {
    route: 'PUT /api/user',
    min: 10,
    path: () => '/api/user/',
    body: (ctx) => ({ id: ctx.targetId, display_name: 'Target' }),
  },
  {
    route: 'POST /api/user/manage',
    min: 10,
    path: () => '/api/user/manage',
    body: (ctx) => ({ id: ctx.targetId, action: 'enable' }),
  },
  // Tokens (own tokens only; a missing one answers "not found" rather than a refusal)
  { route: 'GET /api/token', min: 1, path: () => '/api/token/?p=0&size=10' },
  { route: 'GET /api/token/search', min: 1, path: () => '/api/token/search?keyword=x' },
  {
    route: 'GET /api/token/:id',
    min: 1,
    path: () => '/api/token/999999',
    succeeds: () => false,
  },
  {
    route: 'POST /api/token',
    min: 1,
    path: () => '/api/token/',
    body: (ctx) => ({ name: ctx.unique('tk').slice(0, 30) }),
  },
  {
    route: 'PUT /api/token',
    min: 1,
    path: () => '/api/token/?status_only=true',
    body: () => ({ id: 999999, status: 2 }),
    succeeds: () => false,
  },
  {
    route: 'DELETE /api/token/:id',
    min: 1,
    path: () => '/api/token/999999/',
    succeeds: () => false,
  },
  // Wallet
  {
    route: 'POST /api/user/topup',
    min: 1,
    path: () => '/api/user/topup',
    body: () => ({ key: 'no-such-code' }),
    succeeds: () => false,
  },
  // Online top-up: Epay is not configured here, so pay and the notify are refused.
  {
    route: 'POST /api/user/amount',
    min: 1,
    path: () => '/api/user/amount',
    body: () => ({ amount: 1 }),
  },
  {
    route: 'POST /api/user/pay',
    min: 1,
    path: () => '/api/user/pay',
    body: () => ({ amount: 1, payment_method: 'alipay' }),
    succeeds: () => false,
  },
  { route: 'GET /api/user/topup/self', min: 1, path: () => '/api/user/topup/self?p=1' },
  { route: 'GET /api/user/topup', min: 10, path: () => '/api/user/topup?p=1' },
  {
    route: 'POST /api/user/topup/complete',
    min: 10,
    path: () => '/api/user/topup/complete',
    body: () => ({ trade_no: 'USR1NOnosuch1' }),
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/verifyCrypto',
    min: 1,
    path: () => '/api/user/verifyCrypto',
    body: () => ({ symbol: 'USDT' }),
    succeeds: () => false,
  },
  {
    route: 'GET /api/user/epay/notify',
    min: 0,
    path: () => '/api/user/epay/notify?out_trade_no=USR1NOnosuch1',
    text: 'fail',
  },
  {
    route: 'POST /api/user/epay/notify',
    min: 0,
    path: () => '/api/user/epay/notify',
    body: () => ({ out_trade_no: 'USR1NOnosuch1' }),
    text: 'fail',
  },
  // Stripe: not configured here, so sessions are refused; the price quote works.
  {
    route: 'POST /api/user/createStripe',
    min: 1,
    path: () => '/api/user/createStripe',
    body: () => ({ amount: 10 }),
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/stripe/pay',
    min: 1,
    path: () => '/api/user/stripe/pay',
    body: () => ({ amount: 10, payment_method: 'stripe' }),
    succeeds: () => false,
  },
  {
    route: 'POST /api/user/stripe/amount',
    min: 1,
    path: () => '/api/user/stripe/amount',
    body: () => ({ amount: 10 }),
  },
  // Public, trusted through Stripe-Signature only: unsigned, it is refused with 400.
  {
    route: 'POST /api/stripe/webhook',
    min: 0,
    path: () => '/api/stripe/webhook',
    body: () => ({ id: 'evt_1', type: 'checkout.session.completed' }),
    status: 400,
    succeeds: () => false,
  },
  // Redemption codes (admin)
  { route: 'GET /api/redemption', min: 10, path: () => '/api/redemption/?p=1' },
  { route: 'GET /api/redemption/search', min: 10, path: () => '/api/redemption/search?keyword=x' },
  {
    route: 'GET /api/redemption/:id',
    min: 10,
    path: () => '/api/redemption/999999',
    succeeds: () => false,
  },
  {
    route: 'POST /api/redemption',
    min: 10,
    path: () => '/api/redemption/',
    body: () => ({ name: 'matrix', quota: 1, count: 1 }),
  },
  {
    route: 'PUT /api/redemption',
    min: 10,
    path: () => '/api/redemption/?status_only=true',
    body: () => ({ id: 999999, status: 2 }),
    succeeds: () => false,
  },
  {
    route: 'DELETE /api/redemption/:id',
    min: 10,
    path: () => '/api/redemption/999999/',
    succeeds: () => false,
  },
  // The log
  { route: 'GET /api/log', min: 10, path: () => '/api/log/?p=1' },
  { route: 'GET /api/log/self', min: 1, path: () => '/api/log/self/?p=1' },
  { route: 'GET /api/log/self/search', min: 1, path: () => '/api/log/self/search?keyword=gpt' },
  { route: 'GET /api/status/test', min: 10, path: () => '/api/status/test' },
  { route: 'GET /api/log/stat', min: 10, path: () => '/api/log/stat' },
  { route: 'GET /api/log/self/stat', min: 1, path: () => '/api/log/self/stat' },
  { route: 'DELETE /api/log', min: 100, path: () => '/api/log/?target_timestamp=1' },
  // The drawing and task logs (Midjourney, Suno)
  { route: 'GET /api/mj', min: 10, path: () => '/api/mj/?p=0' },
  { route: 'GET /api/mj/self', min: 1, path: () => '/api/mj/self?p=0' },
  { route: 'GET /api/task', min: 10, path: () => '/api/task/?p=0' },
  { route: 'GET /api/task/self', min: 1, path: () => '/api/task/self?p=0' },
  { route: 'GET /api/task/poll-status', min: 10, path: () => '/api/task/poll-status' },
  { route: 'POST /api/task/poll', min: 10, path: () => '/api/task/poll' },
  // History and the ledger check
  { route: 'GET /api/user/self/history', min: 1, path: () => '/api/user/self/history' },
  {
    route: 'GET /api/user/self/quota_at',
    min: 1,
    path: () => '/api/user/self/quota_at?timestamp=1',
  },
  {
    route: 'GET /api/user/:id/history',
    min: 10,
    path: (ctx) => `/api/user/${ctx.targetId}/history`,
  },
  {
    route: 'GET /api/user/:id/quota_at',
    min: 10,
    path: (ctx) => `/api/user/${ctx.targetId}/quota_at?timestamp=1`,
  },
  {
    route: 'GET /api/token/:id/history',
    min: 1,
    path: () => '/api/token/999999/history',
    succeeds: () => false,
  },
  {
    route: 'GET /api/token/:id/quota_at',
    min: 1,
    path: () => '/api/token/999999/quota_at?timestamp=1',
    succeeds: () => false,
  },
  { route: 'GET /api/channel/:id/history', min: 10, path: () => '/api/channel/999999/history' },
  {
    route: 'GET /api/redemption/:id/history',
    min: 10,
    path: () => '/api/redemption/999999/history',
  },
  { route: 'GET /api/option/history', min: 100, path: () => '/api/option/history' },
  { route: 'GET /api/history', min: 10, path: () => '/api/history?actor_id=1' },
  { route: 'GET /api/ledger/verify', min: 100, path: () => '/api/ledger/verify' },
  // Dashboard data (quota_data)
  { route: 'GET /api/data', min: 10, path: () => '/api/data/' },
  { route: 'GET /api/data/self', min: 1, path: () => '/api/data/self' },
  { route: 'GET /api/data/failures', min: 10, path: () => '/api/data/failures' },
  { route: 'GET /api/data/self/failures', min: 1, path: () => '/api/data/self/failures' },
  { route: 'GET /api/group', min: 10, path: () => '/api/group/' },
  // Channels (administrators). A dead base URL keeps the provider calls local and quick.
  { route: 'GET /api/channel', min: 10, path: () => '/api/channel/?p=0&page_size=10' },
  { route: 'GET /api/channel/search', min: 10, path: () => '/api/channel/search?keyword=m' },
  { route: 'GET /api/channel/models', min: 10, path: () => '/api/channel/models' },
  {
    route: 'GET /api/channel/performance',
    min: 10,
    path: () => '/api/channel/performance?window=60',
  },
  {
    route: 'GET /api/channel/models_enabled',
    min: 10,
    path: () => '/api/channel/models_enabled',
  },
  {
    route: 'GET /api/channel/:id',
    min: 10,
    path: () => '/api/channel/999999',
    succeeds: () => false,
  },
  {
    route: 'POST /api/channel',
    min: 10,
    path: () => '/api/channel/',
    body: (ctx) => ({
      type: 1,
      name: ctx.unique('matrix-channel'),
      key: 'sk-matrix',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini',
      group: 'default',
    }),
  },
  {
    route: 'PUT /api/channel',
    min: 10,
    path: () => '/api/channel/',
    body: () => ({ id: 999999, status: 2 }),
    succeeds: () => false,
  },
  {
    route: 'DELETE /api/channel/:id',
    min: 10,
    path: () => '/api/channel/999999/',
    succeeds: () => false,
  },
  { route: 'DELETE /api/channel/disabled', min: 10, path: () => '/api/channel/disabled' },
  {
    route: 'POST /api/channel/batch',
    min: 10,
    path: () => '/api/channel/batch',
    body: () => ({ ids: [999999] }),
  },
  { route: 'POST /api/channel/fix', min: 10, path: () => '/api/channel/fix' },
  {
    route: 'POST /api/channel/copy/:id',
    min: 10,
    path: () => '/api/channel/copy/999999',
    succeeds: () => false,
  },
  {
    route: 'GET /api/channel/test/:id',
    min: 10,
    path: () => '/api/channel/test/999999',
    succeeds: () => false,
  },
  { route: 'GET /api/channel/test', min: 10, path: () => '/api/channel/test' },
  { route: 'GET /api/channel/update_balance', min: 10, path: () => '/api/channel/update_balance' },
  {
    route: 'GET /api/channel/update_balance/:id',
    min: 10,
    path: () => '/api/channel/update_balance/999999/',
    succeeds: () => false,
  },
  {
    route: 'GET /api/channel/fetch_models/:id',
    min: 10,
    path: () => '/api/channel/fetch_models/999999',
    succeeds: () => false,
  },
  {
    route: 'POST /api/channel/fetch_models',
    min: 10,
    path: () => '/api/channel/fetch_models',
    body: () => ({ type: 1, key: 'sk-matrix', base_url: 'http://127.0.0.1:9' }),
    succeeds: () => false,
  },
  // Root
  { route: 'GET /api/option', min: 100, path: () => '/api/option/' },
  {
    route: 'PUT /api/option',
    min: 100,
    path: () => '/api/option/',
    body: (ctx) => ({ key: 'Notice', value: ctx.unique('notice') }),
  },
  {
    route: 'POST /api/option/rest_model_ratio',
    min: 100,
    path: () => '/api/option/rest_model_ratio',
  },
];

describe('role matrix over every /api route', () => {
  let t: TestApp;
  const clients = {} as Record<Who, ConsoleClient>;
  let counter = 0;
  const ctx: Ctx = { targetId: 0, unique: (prefix) => `${prefix}${(counter += 1)}` };

  beforeAll(async () => {
    t = await startTestApp();
    clients.root = await loginRoot(t.url);
    clients.admin = await createAdmin(t.url, clients.root, 'matrixadmin');
    clients.ordinary = await registerAndLogin(t.url, 'matrixuser');
    clients.anonymous = new ConsoleClient(t.url);
    ctx.targetId = (await registerAndLogin(t.url, 'target')).userId;
  });
  afterAll(() => t.close());

  it('the table covers exactly the routes the controllers declare', async () => {
    expect(ROWS.map((r) => r.route).sort()).toEqual(await declaredRoutes(t));
  });

  /** A client whose session this call may end: a fresh sign-in, or a throwaway account for DELETE self. */
  async function freshClient(row: Row, who: Who): Promise<ConsoleClient> {
    if (who === 'anonymous') return new ConsoleClient(t.url);
    if (row.route === 'DELETE /api/user/self') {
      if (who === 'ordinary') return registerAndLogin(t.url, ctx.unique('gone'));
      if (who === 'admin') return createAdmin(t.url, clients.root, ctx.unique('goneadmin'));
      return loginRoot(t.url); // root is refused (不能删除超级管理员账户)
    }
    const username = { ordinary: 'matrixuser', admin: 'matrixadmin', root: 'root' }[who];
    return new ConsoleClient(t.url).login(username, who === 'root' ? '123456' : 'password123');
  }

  function call(client: ConsoleClient, row: Row): Promise<Response> {
    const [method] = row.route.split(' ');
    const path = row.path(ctx);
    switch (method) {
      case 'GET':
        return client.get(path);
      case 'POST':
        return client.post(path, row.body?.(ctx));
      case 'PUT':
        return client.put(path, row.body?.(ctx));
      case 'DELETE':
        return client.delete(path);
      default:
        throw new Error(`no caller for ${row.route}`);
    }
  }

  describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
    it.each(WHO.map((who) => [who] as const))('as %s', async (who) => {
      const client = row.fresh ? await freshClient(row, who) : clients[who];
      const res = await call(client, row);
      if (row.min > 0 && who === 'anonymous') {
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          success: false,
          message: '无权进行此操作，未登录且未提供 access token',
        });
      } else if (LEVEL[who] < row.min) {
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ success: false, message: FORBIDDEN });
      } else if (row.text !== undefined) {
        expect([res.status, res.text]).toEqual([200, row.text]);
      } else if (row.document !== undefined) {
        expect([res.status, String(res.headers['content-type']).split(';')[0]]).toEqual([
          200,
          row.document,
        ]);
      } else {
        expect(res.status).toBe(row.status ?? 200);
        expect(AUTH_REFUSALS).not.toContain(res.body.message);
        expect([who, res.body.success, res.body.success ? '' : res.body.message]).toEqual([
          who,
          (row.succeeds ?? (() => true))(who),
          res.body.success ? '' : expect.any(String),
        ]);
      }
    });

    if (row.min > 0) {
      it('signed in but without New-Api-User → 401', async () => {
        // Root's cookie, sent without the header the console always adds.
        const res = await clients.root.agent[methodOf(row)](row.path(ctx)).send(
          row.body?.(ctx) ?? {},
        );
        expect(res.status).toBe(401);
        expect(res.body).toEqual({
          success: false,
          message: '无权进行此操作，未提供 New-Api-User',
        });
      });
    }
  });

  it('a refused call changes nothing', async () => {
    const before = (await clients.root.get(`/api/user/${ctx.targetId}`)).body.data;
    const notice = (await clients.root.get('/api/option/')).body.data;
    // Root's channel: an administrator may edit it, but not send its key elsewhere without it.
    const created = await clients.root.post('/api/channel/', {
      type: 1,
      name: ctx.unique('root-channel'),
      key: 'sk-root-matrix',
      base_url: 'http://127.0.0.1:9',
      models: 'gpt-4o-mini',
    });
    const channelId = (created.body.data.ids as number[])[0]!;
    const channel = (await clients.root.get(`/api/channel/${channelId}`)).body.data;
    const retarget = await clients.admin.put('/api/channel/', {
      id: channelId,
      base_url: 'http://127.0.0.1:10',
    });
    expect(retarget.body).toEqual({
      success: false,
      message:
        '修改渠道类型、Base URL 或其他参数时请重新填写密钥（仅超级管理员可沿用已保存的密钥）',
    });
    await clients.ordinary.put('/api/user/', {
      id: ctx.targetId,
      display_name: 'Hacked',
      quota: 999999,
    });
    await clients.ordinary.post('/api/user/manage', { id: ctx.targetId, action: 'disable' });
    await clients.admin.put('/api/option/', { key: 'Notice', value: 'hacked' });
    await clients.anonymous.post('/api/user/', { username: 'sneaky', password: 'password123' });
    expect((await clients.root.get(`/api/user/${ctx.targetId}`)).body.data).toEqual(before);
    expect((await clients.root.get('/api/option/')).body.data).toEqual(notice);
    expect((await clients.root.get('/api/user/search?keyword=sneaky')).body.data.total).toBe(0);
    expect((await clients.root.get(`/api/channel/${channelId}`)).body.data).toEqual(channel);
  });

  it('the throwaway accounts really were deleted by DELETE /api/user/self', async () => {
    const gone = await clients.root.get('/api/user/search?keyword=gone');
    const rows = gone.body.data.items as Array<{ username: string; DeletedAt: string | null }>;
    expect(rows.length).toBe(2); // the ordinary and the admin throwaway
    for (const row of rows) expect(row.DeletedAt).not.toBeNull();
  });
});

function methodOf(row: Row): 'get' | 'post' | 'put' | 'delete' {
  return row.route.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
}
