import { join } from 'node:path';
import Database from 'better-sqlite3';
import request, { type Response } from 'supertest';
import { USER_ID_HEADER } from '@tollgate/contracts';
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
 * wrong type, nulls, odd numerals, huge numbers, long, invisible and forbidden strings; every route
 * with a body also gets deep nesting, many keys, an oversized body and non-JSON content types.
 * Each call must fail (4xx, or 200 with success false), append no event and log no error. A route
 * without a row fails the suite: new routes join it.
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
  | 'page_size'
  | 'action' // an enumerated string
  | 'option_key'
  | 'option_value';

interface Ctx {
  targetId: number;
  unique(prefix: string): string;
}

interface Row {
  readonly route: string;
  readonly path: (ctx: Ctx) => string;
  /** A valid body the bad values are merged into (each call changes one field). */
  readonly body?: (ctx: Ctx) => Record<string, unknown>;
  readonly fields?: Readonly<Record<string, Kind>>;
  readonly query?: Readonly<Record<string, Kind>>;
  /** Path parameters: the path built with a bad value in place of the id. */
  readonly param?: (bad: string) => string;
  /** Who calls: root by default; 'fresh' signs a new ordinary user in per call (DELETE self). */
  readonly as?: 'root' | 'anonymous' | 'fresh';
}

const ROWS: readonly Row[] = [
  { route: 'GET /api/status', path: () => '/api/status' },
  { route: 'GET /api/notice', path: () => '/api/notice' },
  { route: 'GET /api/about', path: () => '/api/about' },
  { route: 'GET /api/home_page_content', path: () => '/api/home_page_content' },
  { route: 'GET /api/models', path: () => '/api/models' },
  { route: 'GET /api/group', path: () => '/api/group' },
  {
    route: 'POST /api/user/login',
    path: () => '/api/user/login',
    as: 'anonymous',
    body: () => ({ username: 'root', password: '123456' }),
    // A fullwidth "Ｒoot" is root's name after NFKC, so login takes it: free text here.
    fields: { username: 'text', password: 'password' },
  },
  {
    route: 'POST /api/user/register',
    path: () => '/api/user/register',
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
  { route: 'GET /api/user/logout', path: () => '/api/user/logout' },
  { route: 'GET /api/user/self', path: () => '/api/user/self' },
  {
    route: 'PUT /api/user/self',
    path: () => '/api/user/self',
    body: () => ({ display_name: 'Fuzzed' }),
    fields: { display_name: 'display_name', password: 'password', original_password: 'password' },
  },
  { route: 'DELETE /api/user/self', path: () => '/api/user/self', as: 'fresh' },
  { route: 'GET /api/user/token', path: () => '/api/user/token' },
  { route: 'GET /api/user/aff', path: () => '/api/user/aff' },
  {
    route: 'POST /api/user/aff_transfer',
    path: () => '/api/user/aff_transfer',
    body: () => ({ quota: 0 }),
    fields: { quota: 'count' },
  },
  { route: 'GET /api/user/models', path: () => '/api/user/models' },
  { route: 'GET /api/user/self/groups', path: () => '/api/user/self/groups' },
  {
    route: 'GET /api/user',
    path: () => '/api/user/',
    query: { p: 'page', page_size: 'page_size' },
  },
  {
    route: 'GET /api/user/search',
    path: () => '/api/user/search',
    query: { p: 'page', page_size: 'page_size', keyword: 'text', group: 'text' },
  },
  {
    route: 'GET /api/user/:id',
    path: (ctx) => `/api/user/${ctx.targetId}`,
    param: (bad) => `/api/user/${bad}`,
  },
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
    },
  },
  {
    route: 'POST /api/user/manage',
    path: () => '/api/user/manage',
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
  { route: 'POST /api/option/rest_model_ratio', path: () => '/api/option/rest_model_ratio' },
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

const COMMON_BAD: readonly unknown[] = [null, {}, [], [1, 2], { $gt: '' }, deep(40)];
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
    case 'page':
    case 'page_size':
      return []; // query kinds: see badQueryValues
  }
}

/** Query strings are text: odd notations, huge numbers, repeats, forbidden characters. */
function badQueryValues(kind: Kind): readonly string[] {
  // (An invalid UTF-8 escape such as %ED%A0%80 decodes to replacement characters: harmless text.)
  const common = ['%00', 'x'.repeat(3000)];
  switch (kind) {
    case 'page':
      return [
        ...common,
        '0x10',
        '1e3',
        '-1',
        '1.5',
        'abc',
        '99999999999999999999',
        '1&p=2',
        '%20%31',
      ];
    case 'page_size':
      return [
        ...common,
        '0x10',
        '1e3',
        '0',
        '101',
        '99999999999999999999',
        'true',
        '1&page_size=2',
      ];
    default:
      return [...common, 'x'.repeat(101), 'a&keyword=b&group=c&group=d'];
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

describe('fuzz: every /api route refuses bad input without a change or an error', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let events: Database.Database;
  let counter = 0;
  const ctx: Ctx = { targetId: 0, unique: (prefix) => `${prefix}${(counter += 1)}` };
  const errors: string[] = [];
  const stderrWrite = process.stderr.write.bind(process.stderr);

  const eventCount = () =>
    (events.prepare('SELECT COUNT(*) AS n FROM events').get() as { n: number }).n;

  beforeAll(async () => {
    t = await startTestApp({ env: { LOG_LEVEL: 'error' } });
    root = await loginRoot(t.url);
    ctx.targetId = (await registerAndLogin(t.url, 'fuzztarget')).userId;
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
  });

  it('every declared route has a row', () => {
    expect(ROWS.map((r) => r.route).sort()).toEqual(declaredRoutes(t.app));
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
    expect({ what, appended: eventCount() - before }).toEqual({ what, appended: 0 });
    expect({ what, logged: errors.slice(logged) }).toEqual({ what, logged: [] });
  }

  const withUser = (client: ConsoleClient, test: request.Test) =>
    client.userId ? test.set(USER_ID_HEADER, String(client.userId)) : test;

  function raw(row: Row, path: string, contentType: string, payload: string): Send {
    const method = row.route.split(' ')[0]!.toLowerCase() as 'post' | 'put' | 'delete';
    return (client) =>
      withUser(client, client.agent[method](path)).set('Content-Type', contentType).send(payload);
  }

  describe.each(ROWS.map((row) => [row.route, row] as const))('%s', (_route, row) => {
    const method = row.route.split(' ')[0]!;
    const hasBody = method !== 'GET';

    if (row.fields) {
      const fields = Object.entries(row.fields);
      it.each(fields)('body field %s: bad values are refused', async (field, kind) => {
        for (const bad of badValues(kind)) {
          const body = { ...row.body!(ctx), [field]: bad };
          await expectRefused(
            row,
            `${field}=${JSON.stringify(bad)?.slice(0, 60)}`,
            raw(row, row.path(ctx), 'application/json', encodeBody(body)),
          );
        }
      });
    }

    if (row.query) {
      it.each(Object.entries(row.query))('query %s: bad values are refused', async (name, kind) => {
        for (const bad of badQueryValues(kind)) {
          await expectRefused(row, `?${name}=${bad.slice(0, 60)}`, (client) =>
            client.get(`${row.path(ctx)}?${name}=${bad}`),
          );
        }
      });
    }

    if (row.param) {
      it('path parameter: bad ids are refused', async () => {
        for (const bad of BAD_PARAMS)
          await expectRefused(row, `param ${bad}`, (client) => client.get(row.param!(bad)));
      });
    }

    it('too many query parameters are refused', async () => {
      const query = Array.from({ length: 40 }, (_, i) => `q${i}=1`).join('&');
      await expectRefused(row, 'query flood', (client) =>
        withUser(client, client.agent[method.toLowerCase() as 'get'](`${row.path(ctx)}?${query}`)),
      );
    });

    if (hasBody) {
      const base = () => row.body?.(ctx) ?? {};
      it('structural attacks on the body are refused', async () => {
        const path = row.path(ctx);
        const manyKeys: Record<string, unknown> = { ...base() };
        for (let i = 0; i < 5000; i += 1) manyKeys[`k${i}`] = i;
        const cases: Array<[string, Send]> = [
          [
            'deep nesting',
            raw(row, path, 'application/json', '{"a":'.repeat(5000) + '1' + '}'.repeat(5000)),
          ],
          ['deep array', raw(row, path, 'application/json', '['.repeat(100) + ']'.repeat(100))],
          ['many keys', raw(row, path, 'application/json', JSON.stringify(manyKeys))],
          [
            'oversized',
            raw(
              row,
              path,
              'application/json',
              JSON.stringify({ ...base(), pad: 'x'.repeat(1_200_000) }),
            ),
          ],
          ['invalid JSON', raw(row, path, 'application/json', '{"a":')],
          [
            'NUL escape',
            raw(row, path, 'application/json', JSON.stringify({ ...base(), z: '\u0000' })),
          ],
          [
            'lone surrogate',
            raw(row, path, 'application/json', encodeBody(base()).replace(/}$/, ',"z":"\\ud800"}')),
          ],
          [
            'form-encoded',
            raw(
              row,
              path,
              'application/x-www-form-urlencoded',
              new URLSearchParams(base() as Record<string, string>).toString() || 'a=1',
            ),
          ],
          ['text/plain', raw(row, path, 'text/plain', JSON.stringify(base()))],
          [
            'no content type',
            (client) =>
              withUser(client, client.agent[method.toLowerCase() as 'post'](path))
                .set('Content-Type', '')
                .send(Buffer.from(JSON.stringify(base()))),
          ],
          ['a JSON array', raw(row, path, 'application/json', '[1,2,3]')],
        ];
        // Bodies are refused where the route reads them; routes that read none refuse only what
        // the edge refuses everywhere (size, structure, characters, content type).
        const edgeOnly = !row.fields;
        for (const [what, send] of cases) {
          if (edgeOnly && what === 'a JSON array') continue;
          await expectRefused(row, what, send);
        }
      });
    }
  });

  it('the valid bodies the bad values were merged into do succeed (the refusals were the fields)', async () => {
    for (const row of ROWS.filter((r) => r.fields)) {
      const client = await caller(row);
      const res = await raw(
        row,
        row.path(ctx),
        'application/json',
        encodeBody(row.body!(ctx)),
      )(client);
      const expected = row.route === 'POST /api/user/aff_transfer' ? false : true;
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
});
