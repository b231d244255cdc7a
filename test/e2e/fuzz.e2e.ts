import { join } from 'node:path';
import Database from 'better-sqlite3';
import request, { type Response } from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { declaredRoutes } from '../support/declared-routes';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

/**
 * Every /api route with generated bad input: each body field and query parameter gets values of the
 * wrong type, odd numerals, huge numbers, long, invisible and forbidden strings; every route with a
 * body also gets deep nesting, many keys, an oversized body and non-JSON content types. Each call
 * must fail (4xx, or 200 with success false), append no event and log no error. A route without a
 * row fails the suite: new routes join it.
 *
 * What new-api reads as "not given" is answered as the field or parameter left out, on every route:
 * a JSON null in a body field, an empty query value, a query number that is no number ("NaN").
 */

/** What a field holds; each kind has its own bad values on top of the common ones. */
type Kind =
  | 'text' // a free string (remark, keyword, option value…)
  | 'username'
  | 'display_name'
  | 'password'
  | 'id' // a positive integer
  | 'count' // a non-negative integer (quota)
  | 'page' // a query page number
  | 'any_page' // a query page number where a negative one is the first (new-api's task logs)
  | 'page_size'
  | 'action' // an enumerated string
  | 'option_key'
  | 'option_value'
  | 'timestamp' // seconds since the epoch, in the future; -1 = never
  | 'bool' // a JSON boolean
  | 'status' // an enumerated integer
  | 'signed_int' // an integer that may be negative
  | 'nullable_text' // a free string where '' clears the field
  | 'key_list' // secrets, one per line
  | 'ip_list' // IPs and CIDRs, one per line
  | 'json_text' // a JSON object as text
  | 'id_list' // an array of positive integers
  | 'nested' // an object of the route's fields
  | 'flag' // a query flag: true/false/1/0
  | 'long_text' // a query filter of up to 200 characters
  | 'keyword' // new-api's log search keyword: up to 128 characters
  | 'wide_page_size' // a page size of up to 1000 (channels)
  | 'secret'; // a key to replace the stored one; empty keeps it

interface Ctx {
  targetId: number;
  /** The mock upstream every channel the suite creates points at (never outside 127.0.0.1). */
  upstreamUrl: string;
  channelId: number;
  /** Deleted by the valid batch call at the end. */
  spareChannelId: number;
  tokenId: number;
  redemptionId: number;
  /** An unused code the valid top-up call redeems at the end. */
  redemptionKey: string;
  unique(prefix: string): string;
}

interface Row {
  readonly route: string;
  /** The path called; the route's own path when absent. */
  readonly path?: (ctx: Ctx) => string;
  /** A valid body the bad values are merged into (each call changes one field). */
  readonly body?: (ctx: Ctx) => Record<string, unknown>;
  readonly fields?: Readonly<Record<string, Kind>>;
  readonly query?: Readonly<Record<string, Kind>>;
  /** Path parameters: the path built with a bad value in place of the id. */
  readonly param?: (bad: string) => string;
  /** Who calls: root by default; 'fresh' signs a new ordinary user in per call (DELETE self). */
  readonly as?: 'root' | 'anonymous' | 'fresh';
  /** A payment provider's callback: answers plain text, 'fail' when refused. */
  readonly text?: boolean;
  /** Fields the null check leaves alone: left out, they would make something the suite must not. */
  readonly nullCheckSkips?: readonly string[];
}

/** The fields of a channel's create and update bodies. */
const CHANNEL_FIELDS: Readonly<Record<string, Kind>> = {
  type: 'status',
  name: 'text',
  key: 'key_list',
  base_url: 'nullable_text',
  other: 'nullable_text',
  models: 'key_list',
  group: 'text',
  model_mapping: 'json_text',
  status_code_mapping: 'json_text',
  priority: 'signed_int',
  weight: 'signed_int',
  auto_ban: 'status',
  test_model: 'nullable_text',
  openai_organization: 'nullable_text',
  max_input_tokens: 'signed_int',
  tag: 'nullable_text',
  setting: 'json_text',
  param_override: 'json_text',
  status: 'status',
};

/** The fields a token's create and update bodies share. */
const TOKEN_FIELDS: Readonly<Record<string, Kind>> = {
  name: 'text',
  expired_time: 'timestamp',
  remain_quota: 'count',
  unlimited_quota: 'bool',
  model_limits_enabled: 'bool',
  model_limits: 'text',
  allow_ips: 'ip_list',
  group: 'text',
  rate_limit_rpm: 'count',
  rate_limit_tpm: 'count',
  rate_limit_concurrency: 'count',
  period_quota: 'count',
  period: 'action',
};

/** A route with an `:id`: called on an existing record, fuzzed with bad ids in its place. */
const byId = (route: string, id: (ctx: Ctx) => number): Row => {
  const url = route.split(' ')[1]!;
  return {
    route,
    path: (ctx) => url.replace(':id', String(id(ctx))),
    param: (bad) => url.replace(':id', bad),
  };
};

/** The query of the history routes (quota_at adds the instant, actor search the actor). */
const HISTORY_QUERY: Readonly<Record<string, Kind>> = {
  p: 'page',
  page_size: 'page_size',
  start_timestamp: 'status',
  end_timestamp: 'status',
};
const QUOTA_AT_QUERY: Readonly<Record<string, Kind>> = { ...HISTORY_QUERY, timestamp: 'status' };
const queryOfHistory = (route: string) =>
  route.endsWith('quota_at')
    ? QUOTA_AT_QUERY
    : route === 'GET /api/history'
      ? { ...HISTORY_QUERY, actor_id: 'status' as const }
      : HISTORY_QUERY;

/** The path a row calls. */
const pathOf = (row: Row, ctx: Ctx): string => row.path?.(ctx) ?? row.route.split(' ')[1]!;

const ROWS: readonly Row[] = [
  { route: 'GET /api/status' },
  { route: 'GET /api/openapi.json' },
  { route: 'GET /api/docs' },
  { route: 'GET /api/notice' },
  { route: 'GET /api/about' },
  { route: 'GET /api/pricing' },
  { route: 'GET /api/home_page_content' },
  { route: 'GET /api/models' },
  { route: 'GET /api/group' },
  {
    route: 'POST /api/user/login',
    as: 'anonymous',
    body: () => ({ username: 'root', password: '123456' }),
    // A fullwidth "Ｒoot" is root's name after NFKC, so login takes it: free text here.
    fields: { username: 'text', password: 'password' },
  },
  {
    route: 'POST /api/user/register',
    as: 'anonymous',
    body: (ctx) => ({
      username: ctx.unique('fz'),
      password: 'password123',
      password2: 'password123',
    }),
    fields: {
      username: 'username',
      password: 'password',
      password2: 'password',
      email: 'text',
      verification_code: 'text',
      aff_code: 'text',
    },
  },
  { route: 'GET /api/user/logout' },
  // Third-party sign-in: every provider is off here, and bad values are refused anyway.
  { route: 'GET /api/oauth/state', as: 'anonymous' },
  {
    route: 'GET /api/oauth/github',
    as: 'anonymous',
    path: () => '/api/oauth/github?code=abc&state=xyz',
    query: { code: 'text', state: 'text' },
  },
  {
    route: 'GET /api/oauth/wechat',
    as: 'anonymous',
    path: () => '/api/oauth/wechat?code=123456',
    query: { code: 'text' },
  },
  {
    route: 'GET /api/oauth/wechat/bind',
    path: () => '/api/oauth/wechat/bind?code=123456',
    query: { code: 'text' },
  },
  {
    route: 'GET /api/oauth/telegram/login',
    as: 'anonymous',
    path: () => '/api/oauth/telegram/login?id=1&auth_date=1&hash=00',
    query: {
      id: 'text',
      first_name: 'text',
      last_name: 'text',
      username: 'text',
      photo_url: 'text',
      auth_date: 'text',
      hash: 'text',
      lang: 'text',
    },
  },
  {
    route: 'GET /api/oauth/telegram/bind',
    path: () => '/api/oauth/telegram/bind?id=1&auth_date=1&hash=00',
    query: {
      id: 'text',
      first_name: 'text',
      last_name: 'text',
      username: 'text',
      photo_url: 'text',
      auth_date: 'text',
      hash: 'text',
      lang: 'text',
    },
  },
  {
    route: 'GET /api/oauth/oidc',
    as: 'anonymous',
    path: () => '/api/oauth/oidc?code=abc&state=xyz',
    query: { code: 'text', state: 'text' },
  },
  { route: 'GET /api/oauth/oidc/authorize', as: 'anonymous', query: { aff: 'text' } },
  {
    route: 'GET /api/oauth/linuxdo',
    as: 'anonymous',
    path: () => '/api/oauth/linuxdo?code=abc&state=xyz',
    query: { code: 'text', state: 'text', error: 'text', error_description: 'text' },
  },
  { route: 'GET /api/setup', as: 'anonymous' },
  {
    route: 'POST /api/setup',
    as: 'anonymous',
    // Never completes: the two passwords differ whatever single field is changed.
    body: () => ({ username: 'root', password: 'password-one', confirmPassword: 'password-two' }),
    fields: {
      username: 'text',
      password: 'text',
      confirmPassword: 'text',
      SelfUseModeEnabled: 'bool',
      DemoSiteEnabled: 'bool',
    },
  },
  // Mail: no SMTP server is configured here, so even a well-formed call sends nothing.
  {
    route: 'GET /api/verification',
    as: 'anonymous',
    path: () => '/api/verification?email=fuzz@example.com',
    query: { email: 'text', turnstile: 'text' },
  },
  {
    route: 'GET /api/reset_password',
    as: 'anonymous',
    path: () => '/api/reset_password?email=fuzz@example.com',
    query: { email: 'text', turnstile: 'text' },
  },
  {
    route: 'POST /api/user/reset',
    as: 'anonymous',
    body: () => ({ email: 'fuzz@example.com', token: 'not-a-token' }),
    fields: { email: 'text', token: 'text' },
  },
  {
    route: 'GET /api/oauth/email/bind',
    path: () => '/api/oauth/email/bind?email=fuzz@example.com&code=123456',
    query: { email: 'text', code: 'text' },
  },
  { route: 'GET /api/user/self' },
  {
    route: 'PUT /api/user/self',
    body: () => ({ display_name: 'Fuzzed' }),
    fields: { display_name: 'display_name', password: 'password', original_password: 'password' },
  },
  { route: 'DELETE /api/user/self', as: 'fresh' },
  { route: 'GET /api/user/token' },
  { route: 'GET /api/user/aff' },
  {
    route: 'POST /api/user/aff_transfer',
    body: () => ({ quota: 0 }),
    fields: { quota: 'count' },
  },
  {
    route: 'PUT /api/user/setting',
    body: () => ({ notify_type: 'email', quota_warning_threshold: 1000 }),
    fields: {
      notify_type: 'action',
      quota_warning_threshold: 'count',
      webhook_url: 'text',
      webhook_secret: 'secret',
      notification_email: 'text',
      accept_admin_alerts: 'bool',
    },
  },
  { route: 'POST /api/user/setting/test' },
  {
    route: 'GET /api/user/notices',
    path: () => '/api/user/notices',
    query: { p: 'page', page_size: 'page_size' },
  },
  { route: 'GET /api/user/models' },
  { route: 'GET /api/user/self/groups' },
  { route: 'GET /api/user/groups', as: 'anonymous' },
  {
    route: 'GET /api/user',
    path: () => '/api/user/',
    query: { p: 'page', page_size: 'page_size' },
  },
  {
    route: 'GET /api/user/search',
    query: { p: 'page', page_size: 'page_size', keyword: 'text', group: 'text' },
  },
  byId('GET /api/user/:id', (ctx) => ctx.targetId),
  {
    route: 'POST /api/user',
    path: () => '/api/user/',
    body: (ctx) => ({ username: ctx.unique('fm'), password: 'password123' }),
    fields: { username: 'username', display_name: 'display_name', password: 'password' },
  },
  {
    route: 'PUT /api/user',
    path: () => '/api/user/',
    body: (ctx) => ({ id: ctx.targetId }),
    fields: {
      id: 'id',
      username: 'username',
      display_name: 'display_name',
      password: 'password',
      group: 'text',
      quota: 'count',
      remark: 'text',
      period_quota: 'count',
      period: 'action',
    },
  },
  {
    route: 'POST /api/user/manage',
    body: (ctx) => ({ id: ctx.targetId, action: 'enable' }),
    fields: { id: 'id', action: 'action' },
  },
  { route: 'GET /api/option', path: () => '/api/option/' },
  {
    route: 'PUT /api/option',
    path: () => '/api/option/',
    body: () => ({ key: 'Notice', value: 'fuzz' }),
    fields: { key: 'option_key', value: 'option_value' },
  },
  { route: 'POST /api/option/rest_model_ratio' },
  {
    route: 'GET /api/token',
    path: () => '/api/token/',
    query: { p: 'page', size: 'page_size' },
  },
  {
    route: 'GET /api/token/search',
    query: { p: 'page', size: 'page_size', keyword: 'long_text', token: 'long_text' },
  },
  byId('GET /api/token/:id', (ctx) => ctx.tokenId),
  {
    route: 'POST /api/token',
    path: () => '/api/token/',
    body: (ctx) => ({ name: ctx.unique('fzt') }),
    fields: { ...TOKEN_FIELDS, count: 'count' },
  },
  {
    route: 'PUT /api/token',
    path: () => '/api/token/',
    body: (ctx) => ({ id: ctx.tokenId, name: 'fz-token' }),
    fields: { id: 'id', ...TOKEN_FIELDS, status: 'status' },
    query: { status_only: 'flag' },
  },
  byId('DELETE /api/token/:id', (ctx) => ctx.tokenId),
  {
    route: 'GET /api/redemption',
    path: () => '/api/redemption/',
    query: { p: 'page', page_size: 'page_size', keyword: 'long_text' },
  },
  {
    route: 'GET /api/redemption/search',
    query: { p: 'page', page_size: 'page_size', keyword: 'long_text' },
  },
  byId('GET /api/redemption/:id', (ctx) => ctx.redemptionId),
  {
    route: 'POST /api/redemption',
    path: () => '/api/redemption/',
    body: (ctx) => ({ name: ctx.unique('fzr'), quota: 1000 }),
    fields: { name: 'text', quota: 'count', count: 'count' },
  },
  {
    route: 'PUT /api/redemption',
    path: () => '/api/redemption/',
    body: (ctx) => ({ id: ctx.redemptionId, name: 'fz-code', quota: 500 }),
    fields: { id: 'id', name: 'text', quota: 'count', status: 'status' },
    query: { status_only: 'flag' },
  },
  byId('DELETE /api/redemption/:id', (ctx) => ctx.redemptionId),
  {
    route: 'POST /api/user/topup',
    body: (ctx) => ({ key: ctx.redemptionKey }),
    fields: { key: 'text' },
  },
  // Online top-up. Epay is not configured: pay is refused even when valid.
  { route: 'POST /api/user/amount', body: () => ({ amount: 1 }), fields: { amount: 'count' } },
  {
    route: 'POST /api/user/pay',
    body: () => ({ amount: 1, payment_method: 'alipay' }),
    fields: { amount: 'count', payment_method: 'text' },
  },
  ...['GET /api/user/topup', 'GET /api/user/topup/self'].map((route): Row => ({
    route,
    query: {
      p: 'page',
      page_size: 'page_size',
      keyword: 'long_text',
      status: 'action',
      ...(route === 'GET /api/user/topup' ? { user_id: 'id' as const } : {}),
    },
  })),
  {
    route: 'POST /api/user/topup/complete',
    body: () => ({ trade_no: 'USR1NOnosuch1' }),
    fields: { trade_no: 'text' },
  },
  { route: 'POST /api/user/verifyCrypto', body: () => ({ symbol: 'USDT' }) },
  // Epay's callback answers plain text: a refusal is 'fail' (or the edge's 4xx envelope).
  { route: 'GET /api/user/epay/notify', as: 'anonymous', text: true },
  {
    route: 'POST /api/user/epay/notify',
    as: 'anonymous',
    body: () => ({ out_trade_no: 'USR1NOnosuch1' }),
    text: true,
  },
  // Stripe, not configured: sessions are refused even when valid.
  ...['POST /api/user/createStripe', 'POST /api/user/stripe/amount'].map((route): Row => ({
    route,
    body: () => ({ amount: 10 }),
    fields: { amount: 'count' },
  })),
  {
    route: 'POST /api/user/stripe/pay',
    body: () => ({ amount: 10, payment_method: 'stripe' }),
    fields: { amount: 'count', payment_method: 'text' },
  },
  // Stripe's webhook: unsigned, every body is refused (400) before anything is read from it.
  {
    route: 'POST /api/stripe/webhook',
    as: 'anonymous',
    body: () => ({ id: 'evt_1', type: 'checkout.session.completed', data: { object: {} } }),
    fields: { id: 'text', type: 'text', data: 'nested' },
  },

  ...['GET /api/log', 'GET /api/log/self', 'GET /api/log/stat', 'GET /api/log/self/stat'].map(
    (route): Row => ({
      route,
      path: () => `${route.slice(4)}/`,
      query: {
        p: 'page',
        page_size: 'page_size',
        type: 'status',
        username: 'text',
        token_name: 'text',
        model_name: 'long_text',
        start_timestamp: 'timestamp',
        end_timestamp: 'timestamp',
        channel: 'page',
        group: 'text',
      },
    }),
  ),
  { route: 'GET /api/log/self/search', query: { keyword: 'keyword' } },
  // A token's log by its key, without a session: every fuzzed key is refused (no such token).
  { route: 'GET /api/log/token', as: 'anonymous', query: { key: 'text' } },
  { route: 'GET /api/status/test' },
  ...['GET /api/data', 'GET /api/data/self'].map((route): Row => ({
    route,
    path: () => `${route.slice(4)}/`,
    query: { username: 'text', start_timestamp: 'timestamp', end_timestamp: 'timestamp' },
  })),
  ...['GET /api/data/failures', 'GET /api/data/self/failures'].map((route): Row => ({
    route,
    path: () => route.slice(4),
    query: { start_timestamp: 'timestamp', end_timestamp: 'timestamp' },
  })),
  {
    route: 'DELETE /api/log',
    path: () => '/api/log/',
    query: { target_timestamp: 'timestamp' },
  },
  // The drawing and task logs: new-api's 0-based `p` takes a negative page (the first);
  // timestamps are milliseconds (mj) or seconds (task), 0 = no bound.
  ...['GET /api/mj', 'GET /api/mj/self'].map((route): Row => ({
    route,
    path: () => `${route.slice(4)}/`,
    query: {
      p: 'any_page',
      mj_id: 'text',
      start_timestamp: 'status',
      end_timestamp: 'status',
      ...(route === 'GET /api/mj' ? { channel_id: 'page' as const } : {}),
    },
  })),
  ...['GET /api/task', 'GET /api/task/self'].map((route): Row => ({
    route,
    path: () => `${route.slice(4)}/`,
    query: {
      p: 'any_page',
      platform: 'text',
      task_id: 'text',
      status: 'text',
      action: 'text',
      start_timestamp: 'status',
      end_timestamp: 'status',
      ...(route === 'GET /api/task' ? { channel_id: 'page' as const } : {}),
    },
  })),
  // History and the ledger check: paging, time ranges, instants
  ...(
    [
      ['GET /api/user/self/history', () => '/api/user/self/history'],
      ['GET /api/user/self/quota_at', () => '/api/user/self/quota_at'],
      ['GET /api/option/history', () => '/api/option/history'],
      ['GET /api/history', () => '/api/history'],
    ] as const
  ).map(([route, path]): Row => ({ route, path, query: queryOfHistory(route) })),
  ...(
    [
      ['GET /api/user/:id/history', (ctx: Ctx) => ctx.targetId],
      ['GET /api/user/:id/quota_at', (ctx: Ctx) => ctx.targetId],
      ['GET /api/token/:id/history', (ctx: Ctx) => ctx.tokenId],
      ['GET /api/token/:id/quota_at', (ctx: Ctx) => ctx.tokenId],
      ['GET /api/channel/:id/history', (ctx: Ctx) => ctx.channelId],
      ['GET /api/redemption/:id/history', (ctx: Ctx) => ctx.redemptionId],
    ] as const
  ).map(([route, id]): Row => ({ ...byId(route, id), query: queryOfHistory(route) })),
  { route: 'GET /api/ledger/verify' },
  {
    route: 'GET /api/channel',
    path: () => '/api/channel/',
    query: { p: 'page', page_size: 'wide_page_size', id_sort: 'flag' },
  },
  {
    route: 'GET /api/channel/search',
    query: {
      p: 'page',
      page_size: 'wide_page_size',
      id_sort: 'flag',
      keyword: 'long_text',
      group: 'text',
      model: 'long_text',
    },
  },
  byId('GET /api/channel/:id', (ctx) => ctx.channelId),
  { route: 'GET /api/channel/models' },
  { route: 'GET /api/channel/models_enabled' },
  { route: 'GET /api/channel/performance', query: { window: 'page' } },
  { route: 'GET /api/channel/test' },
  {
    ...byId('GET /api/channel/test/:id', (ctx) => ctx.channelId),
    query: { model: 'long_text' },
  },
  { route: 'GET /api/channel/update_balance' },
  byId('GET /api/channel/update_balance/:id', (ctx) => ctx.channelId),
  byId('GET /api/channel/fetch_models/:id', (ctx) => ctx.channelId),
  {
    route: 'POST /api/channel/fetch_models',
    body: (ctx) => ({ type: 1, key: 'sk-fuzz', base_url: ctx.upstreamUrl }),
    fields: { type: 'status', key: 'text', base_url: 'text' },
  },
  {
    route: 'POST /api/channel',
    path: () => '/api/channel/',
    body: (ctx) => ({
      type: 1,
      name: ctx.unique('fzc'),
      key: 'sk-fuzz',
      base_url: ctx.upstreamUrl,
      models: 'gpt-4o',
      group: 'default',
    }),
    fields: { ...CHANNEL_FIELDS, mode: 'action', channel: 'nested' },
    // Without a base URL a new channel points at the provider's own address.
    nullCheckSkips: ['base_url'],
  },
  {
    route: 'PUT /api/channel',
    path: () => '/api/channel/',
    body: (ctx) => ({ id: ctx.channelId, name: 'fz-channel', base_url: ctx.upstreamUrl }),
    fields: { id: 'id', ...CHANNEL_FIELDS, key: 'secret' },
  },
  { route: 'DELETE /api/channel/disabled' },
  byId('DELETE /api/channel/:id', (ctx) => ctx.channelId),
  {
    route: 'POST /api/channel/batch',
    body: (ctx) => ({ ids: [ctx.spareChannelId] }),
    fields: { ids: 'id_list' },
  },
  { route: 'POST /api/channel/fix' },
  // The task poller: no input to fuzz (a status, and a round on demand).
  { route: 'GET /api/task/poll-status' },
  { route: 'POST /api/task/poll' },
  {
    ...byId('POST /api/channel/copy/:id', (ctx) => ctx.channelId),
    query: { suffix: 'text', reset_balance: 'flag' },
  },
];

const deep = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i += 1) value = { a: value };
  return value;
};

/** Raw JSON text for values JSON.stringify cannot write (a number beyond 2^64). */
class RawJson {
  constructor(readonly text: string) {}
}

// No null: a null field is the field left out (checked against that, route by route).
const COMMON_BAD: readonly unknown[] = [{}, [], [1, 2], { $gt: '' }, deep(40)];
const NON_STRINGS: readonly unknown[] = [0, 1, -1, true, false, 1e300];
const LONG = 'x'.repeat(20_000);
const INVISIBLE = ['root\u200b', '\u202etoor', 'a\u0000b', 'x\ud800', '\ufeff', 'r\u043eot'];
const ODD_NUMERALS: readonly unknown[] = [
  '1e3',
  '0x10',
  '0b1',
  '1.5',
  ' 1',
  '',
  'NaN',
  'Infinity',
  '٣', // Arabic-Indic three
  '1_000',
  true,
  false,
  1.5,
  -1,
  1e20,
  new RawJson('99999999999999999999999'),
  [1],
  { value: 1 },
];

/** Bad values by kind, all of which must be refused wherever that kind appears. */
function badValues(kind: Kind): readonly unknown[] {
  switch (kind) {
    case 'text':
      return [...COMMON_BAD, ...NON_STRINGS, LONG, 'a\u0000b', 'x\ud800y'];
    case 'username':
      return [...COMMON_BAD, ...NON_STRINGS, LONG, ...INVISIBLE, 'a'.repeat(21), '\uff32oot'];
    case 'display_name':
      return [
        ...COMMON_BAD,
        ...NON_STRINGS,
        LONG,
        ...INVISIBLE.slice(0, 4),
        'a\u0007b',
        'a\u2028b',
        'd'.repeat(21),
      ];
    case 'password':
      return [...COMMON_BAD, ...NON_STRINGS, LONG, 'a\u0000bcdefgh'];
    case 'id':
      return [...COMMON_BAD, ...ODD_NUMERALS, 0, Number.MAX_SAFE_INTEGER + 2];
    case 'count':
      return [...COMMON_BAD, ...ODD_NUMERALS, Number.MAX_SAFE_INTEGER + 2];
    case 'action':
      return [...COMMON_BAD, ...NON_STRINGS, 'Promote', 'delete\u200b', LONG];
    case 'option_value':
      // Booleans and numbers are taken (older clients send them) and stored as text.
      return [...COMMON_BAD, 'x'.repeat(1_100_000), 'a\u0000b', 'x\ud800y'];
    case 'option_key':
      return [...COMMON_BAD, ...NON_STRINGS, LONG, 'Notice\u0000', 'Notice\u200b'];
    case 'timestamp':
      // -1 (never) is valid; the past is not.
      return [...COMMON_BAD, ...ODD_NUMERALS.filter((v) => v !== -1), -2, 0, 1_000, 2 ** 53 + 2];
    case 'bool':
      return [...COMMON_BAD, 0, 1, 'true', 'false', '1', 'yes'];
    case 'status':
      return [...COMMON_BAD, ...ODD_NUMERALS, 99_999, 2 ** 53 + 2];
    case 'signed_int':
      return [...COMMON_BAD, ...ODD_NUMERALS.filter((v) => v !== -1), 2 ** 31];
    case 'nullable_text':
      return [...COMMON_BAD, ...NON_STRINGS, LONG, 'a\u0000b', 'x\ud800y'];
    case 'key_list':
      return [...COMMON_BAD, ...NON_STRINGS, '', ' \n \n', 'a\u0000b', 'x\ud800y'];
    case 'ip_list':
      return [...badValues('text'), '300.1.1.1', '10.0.0.0/33', 'localhost', '10.0.0.1\nnot-an-ip'];
    case 'json_text':
      return [...badValues('nullable_text'), '{', '[1,2]', '"x"', '1', '{"a":'];
    case 'id_list':
      return [
        ...COMMON_BAD.filter((v) => !Array.isArray(v)),
        ...NON_STRINGS,
        'abc',
        [0],
        [-1],
        [1.5],
        ['1'],
        ['0x10'],
        [null],
        [{}],
        [[1]],
        [2 ** 53 + 2],
        [true],
      ];
    case 'nested':
      return [[], [1, 2], ...NON_STRINGS, 'x', { type: 'x' }, { key: 1 }, deep(40)];
    case 'secret':
      return [...COMMON_BAD, ...NON_STRINGS, 'a\u0000b', 'x\ud800y'];
    case 'page':
    case 'any_page':
    case 'page_size':
    case 'wide_page_size':
    case 'flag':
    case 'long_text':
    case 'keyword':
      return []; // query kinds: see badQueryValues
  }
}

/** Query kinds that hold an integer. */
const QUERY_NUMBERS: ReadonlySet<Kind> = new Set([
  'id',
  'page',
  'any_page',
  'page_size',
  'wide_page_size',
  'timestamp',
  'status',
]);

/**
 * Query values answered as the parameter left out: empty, and for a number any text that is no
 * integer (new-api's console sends `channel=` and `end_timestamp=NaN`).
 */
function absentQueryValues(kind: Kind): readonly string[] {
  return QUERY_NUMBERS.has(kind) ? ['', 'NaN', 'abc', '1.5', '0x10', '1e3', '%20%31'] : [''];
}

/** Query strings are text: out-of-range numbers, repeats, forbidden characters, odd flags. */
function badQueryValues(kind: Kind, name: string): readonly string[] {
  // (An invalid UTF-8 escape such as %ED%A0%80 decodes to replacement characters: harmless text.)
  // A repeated parameter arrives as an array.
  const common = ['%00', 'x'.repeat(3000), `1&${name}=2`];
  switch (kind) {
    case 'page':
      return [...common, '-1', '99999999999999999999'];
    case 'any_page':
      return [...common, '99999999999999999999'];
    case 'id':
      return [...common, '0', '-1', '99999999999999999999'];
    case 'wide_page_size':
      return [...common, '0', '1001', '99999999999999999999'];
    case 'page_size':
      return [...common, '0', '101', '99999999999999999999'];
    case 'timestamp':
    case 'status':
      return [...common, '-2', '99999999999999999999'];
    case 'flag':
      return [...common, 'yes', '2', 'TRUE', 'true%20'];
    case 'long_text':
      return [...common, 'x'.repeat(201)];
    case 'keyword':
      return [...common, 'x'.repeat(129)];
    default:
      return [...common, 'x'.repeat(101)];
  }
}

const BAD_PARAMS = ['abc', '0x10', '1e3', '-1', '1.5', '99999999999999999999', '%00', '%E2%80%8B1'];

function encodeBody(body: Record<string, unknown>): string {
  const raws: string[] = [];
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value instanceof RawJson) {
      raws.push(value.text);
      return `__raw${raws.length - 1}__`;
    }
    return value;
  });
  return text.replace(/"__raw(\d+)__"/g, (_m, i: string) => raws[Number(i)]!);
}

const JSON_TYPE = 'application/json';

/**
 * Bodies refused on every route that takes one: what, the content type, and the payload made from
 * the route's valid body.
 */
const STRUCTURAL: ReadonlyArray<
  readonly [string, string, (base: Record<string, unknown>) => string | Buffer]
> = [
  ['deep nesting', JSON_TYPE, () => '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)],
  ['deep array', JSON_TYPE, () => '['.repeat(100) + ']'.repeat(100)],
  [
    'many keys',
    JSON_TYPE,
    (base) =>
      JSON.stringify({
        ...base,
        ...Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])),
      }),
  ],
  ['oversized', JSON_TYPE, (base) => JSON.stringify({ ...base, pad: 'x'.repeat(1_200_000) })],
  ['invalid JSON', JSON_TYPE, () => '{"a":'],
  ['NUL escape', JSON_TYPE, (base) => JSON.stringify({ ...base, z: '\u0000' })],
  ['lone surrogate', JSON_TYPE, (base) => encodeBody(base).replace(/}$/, ',"z":"\\ud800"}')],
  [
    'form-encoded',
    'application/x-www-form-urlencoded',
    (base) => new URLSearchParams(base as Record<string, string>).toString() || 'a=1',
  ],
  ['text/plain', 'text/plain', (base) => JSON.stringify(base)],
  // An empty Content-Type with a Buffer: supertest adds none of its own.
  ['no content type', '', (base) => Buffer.from(JSON.stringify(base))],
  ['a JSON array', JSON_TYPE, () => '[1,2,3]'],
];

/** What a call answered, to compare two calls: the status, and success or the message. */
function outcome(res: Response): Record<string, unknown> {
  if (res.type === 'text/plain') return { status: res.status, text: res.text };
  const body = res.body as { success?: unknown; message?: unknown };
  return body.success === false
    ? { status: res.status, success: false, message: body.message }
    : { status: res.status, success: body.success };
}

const verbOf = (row: Row) =>
  row.route.split(' ')[0]!.toLowerCase() as 'get' | 'post' | 'put' | 'delete';

/** class-validator's default constraint texts ("password must be a string", "each value in …"). */
const CLASS_VALIDATOR_TEXT =
  /\b(must|should not|each value in|nested property|Validation failed)\b/;

describe('fuzz: every /api route refuses bad input without a change or an error', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let events: Database.Database;
  let counter = 0;
  let upstream: MockUpstream;
  const ctx: Ctx = {
    targetId: 0,
    upstreamUrl: '',
    channelId: 0,
    spareChannelId: 0,
    tokenId: 0,
    redemptionId: 0,
    redemptionKey: '',
    unique: (prefix) => `${prefix}${(counter += 1)}`,
  };
  const errors: string[] = [];
  const stderrWrite = process.stderr.write.bind(process.stderr);

  const eventCount = () =>
    (events.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'error' } });
    root = await loginRoot(t.url);
    ctx.targetId = (await registerAndLogin(t.url, 'fuzztarget')).userId;
    upstream = await MockUpstream.start();
    ctx.upstreamUrl = upstream.url;
    const data = async (res: Promise<Response>): Promise<any> => {
      const { body } = await res;
      if (!body.success) throw new Error(`fixture: ${JSON.stringify(body)}`);
      return body.data;
    };
    const channel = { type: 1, key: 'sk-fuzz', base_url: upstream.url, models: 'gpt-4o' };
    ctx.channelId = (await data(root.post('/api/channel/', { ...channel, name: 'fz-a' }))).ids[0];
    ctx.spareChannelId = (
      await data(root.post('/api/channel/', { ...channel, name: 'fz-b' }))
    ).ids[0];
    ctx.tokenId = (await data(root.post('/api/token/', { name: 'fz-token' }))).ids[0];
    await data(root.post('/api/redemption/', { name: 'fz-code', quota: 1000, count: 2 }));
    const codes = (await data(root.get('/api/redemption/'))).items as Array<{ id: number }>;
    ctx.redemptionId = codes[0]!.id;
    ctx.redemptionKey = (
      await data(root.post('/api/redemption/', { name: 'fz-key', quota: 10 }))
    )[0];
    events = new Database(join(t.dataDir, 'events.sqlite'), { readonly: true });
    // The gateway logs every 500 (and any unexpected error) at error level: collect them.
    process.stderr.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (/\bERROR\b/.test(String(chunk))) errors.push(String(chunk));
      return (stderrWrite as (...args: unknown[]) => boolean)(chunk, ...rest);
    };
  });
  afterAll(async () => {
    process.stderr.write = stderrWrite;
    events?.close();
    await t?.close();
    await upstream?.close();
  });

  it('every declared route has a row', async () => {
    expect(ROWS.map((r) => r.route).sort()).toEqual(await declaredRoutes(t));
  });

  async function caller(row: Row): Promise<ConsoleClient> {
    if (row.as === 'anonymous') return new ConsoleClient(t.url);
    if (row.as === 'fresh') return registerAndLogin(t.url, ctx.unique('fzdel'));
    return root;
  }

  type Send = (client: ConsoleClient) => request.Test;

  /** One bad call: refused, no event appended, nothing logged at error level. */
  async function expectRefused(row: Row, what: string, send: Send): Promise<void> {
    const client = await caller(row);
    const before = eventCount();
    const logged = errors.length;
    const res: Response = await send(client);
    if (row.text && res.status === 200 && res.type === 'text/plain') {
      expect({ what, text: res.text }).toEqual({ what, text: 'fail' });
      expect({ what, appended: eventCount() - before }).toEqual({ what, appended: 0 });
      expect({ what, logged: errors.slice(logged) }).toEqual({ what, logged: [] });
      return;
    }
    const refused =
      (res.status >= 400 && res.status < 500) ||
      (res.status === 200 && (res.body as { success?: unknown }).success === false);
    expect({ what, status: res.status, refused, body: res.body as unknown }).toEqual({
      what,
      status: res.status,
      refused: true,
      body: expect.objectContaining({ success: false, message: expect.any(String) }),
    });
    expect(res.status).not.toBe(500);
    // Refusals read in the request's language (zh-CN here): no class-validator English.
    const message = String((res.body as { message?: unknown }).message);
    expect({ what, message, english: CLASS_VALIDATOR_TEXT.test(message) }).toEqual({
      what,
      message,
      english: false,
    });
    expect({ what, appended: eventCount() - before }).toEqual({ what, appended: 0 });
    expect({ what, logged: errors.slice(logged) }).toEqual({ what, logged: [] });
  }

  /** The row's method on a path, as its caller. */
  const open =
    (row: Row, path: string) =>
    (client: ConsoleClient): request.Test =>
      client.open(verbOf(row), path);

  function raw(row: Row, path: string, contentType: string, payload: string | Buffer): Send {
    return (client) => open(row, path)(client).set('Content-Type', contentType).send(payload);
  }

  describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
    const hasBody = verbOf(row) !== 'get';

    if (row.fields) {
      const fields = Object.entries(row.fields);
      it.each(fields)('body field %s: bad values are refused', async (field, kind) => {
        for (const bad of badValues(kind)) {
          const body = { ...row.body!(ctx), [field]: bad };
          await expectRefused(
            row,
            `${field}=${JSON.stringify(bad)?.slice(0, 60)}`,
            raw(row, pathOf(row, ctx), 'application/json', encodeBody(body)),
          );
        }
      });
    }

    if (row.fields) {
      it('a null body field is answered as the field left out', async () => {
        const fields = Object.keys(row.fields!).filter((f) => !row.nullCheckSkips?.includes(f));
        for (const field of fields) {
          const without = { ...row.body!(ctx) };
          delete without[field];
          const left = await raw(
            row,
            pathOf(row, ctx),
            JSON_TYPE,
            encodeBody(without),
          )(await caller(row));
          const nulled = await raw(
            row,
            pathOf(row, ctx),
            JSON_TYPE,
            encodeBody({
              ...row.body!(ctx),
              [field]: null,
            }),
          )(await caller(row));
          expect({ field, ...outcome(nulled) }).toEqual({ field, ...outcome(left) });
        }
        expect(errors).toEqual([]);
      });
    }

    if (row.query) {
      it('an empty or unparsable number in the query is answered as the parameter left out', async () => {
        for (const [name, kind] of Object.entries(row.query!)) {
          const send = (query: string) => async () => {
            const test = open(row, `${pathOf(row, ctx)}${query}`)(await caller(row));
            return hasBody ? test.send(row.body?.(ctx) ?? {}) : test;
          };
          const left = await send('')();
          for (const value of absentQueryValues(kind)) {
            const given = await send(`?${name}=${value}`)();
            expect({ name, value, ...outcome(given) }).toEqual({ name, value, ...outcome(left) });
          }
        }
        expect(errors).toEqual([]);
      });

      it.each(Object.entries(row.query))('query %s: bad values are refused', async (name, kind) => {
        for (const bad of badQueryValues(kind, name)) {
          await expectRefused(row, `?${name}=${bad.slice(0, 60)}`, (client) => {
            const test = open(row, `${pathOf(row, ctx)}?${name}=${bad}`)(client);
            return hasBody ? test.send(row.body?.(ctx) ?? {}) : test;
          });
        }
      });
    }

    if (row.param) {
      it('path parameter: bad ids are refused', async () => {
        for (const bad of BAD_PARAMS)
          await expectRefused(row, `param ${bad}`, open(row, row.param!(bad)));
      });
    }

    it('too many query parameters are refused', async () => {
      const query = Array.from({ length: 40 }, (_, i) => `q${i}=1`).join('&');
      await expectRefused(row, 'query flood', open(row, `${pathOf(row, ctx)}?${query}`));
    });

    if (hasBody) {
      it('structural attacks on the body are refused', async () => {
        // Bodies are refused where the route reads them; routes that read none refuse only what
        // the edge refuses everywhere (size, structure, characters, content type).
        const edgeOnly = !row.fields;
        for (const [what, contentType, payload] of STRUCTURAL) {
          if (edgeOnly && what === 'a JSON array') continue;
          const body = payload(row.body?.(ctx) ?? {});
          await expectRefused(row, what, raw(row, pathOf(row, ctx), contentType, body));
        }
      });
    }
  });

  it('the valid bodies the bad values were merged into do succeed (the refusals were the fields)', async () => {
    for (const row of ROWS.filter((r) => r.fields)) {
      const client = await caller(row);
      const res = await raw(
        row,
        pathOf(row, ctx),
        'application/json',
        encodeBody(row.body!(ctx)),
      )(client);
      // A transfer of 0, a reset without a mailed token and a first-run wizard whose passwords
      // differ (it would replace root's password) are refused by design.
      const expected = ![
        'POST /api/user/aff_transfer',
        'POST /api/user/reset',
        'POST /api/setup',
        'POST /api/user/pay',
        'POST /api/user/topup/complete',
        // Stripe is not configured here; the webhook's body is never signed.
        'POST /api/user/createStripe',
        'POST /api/user/stripe/pay',
        'POST /api/stripe/webhook',
      ].includes(row.route);
      expect({ route: row.route, success: res.body.success }).toEqual({
        route: row.route,
        success: expected,
      });
    }
    expect(errors).toEqual([]);
  });

  it('an anonymous flood of bad logins still leaves the user list intact', async () => {
    const list = await root.get('/api/user/search?keyword=fz');
    expect(list.body.success).toBe(true);
    // Only the baseline registrations and the fresh DELETE-self users exist: no fuzzed name did.
    for (const item of list.body.data.items as Array<{ username: string }>)
      expect(item.username).toMatch(/^fz(m|del)?\d+$/);
  });

  it('every channel left behind still points at the local mock upstream (no provider was called)', async () => {
    const list = await root.get('/api/channel/?p=0&page_size=1000');
    expect(list.body.success).toBe(true);
    const items = list.body.data as Array<{ name: string; base_url: string }>;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items)
      expect({ name: item.name, base_url: item.base_url }).toEqual({
        name: item.name,
        base_url: ctx.upstreamUrl,
      });
    // The valid fetch_models call reached the mock: the suite's provider calls end there.
    expect(upstream.requestsTo('/models').length).toBeGreaterThan(0);
  });
});
