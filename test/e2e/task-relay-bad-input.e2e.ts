/**
 * Every Midjourney and Suno relay route with bad keys, bodies and paths: never a 500, refusals in
 * the task wire's shape (midjourney-proxy `{code, description}`, Suno `{code, message}`, OpenAI's
 * error for admission), and nothing billed for a refused request.
 */
import request from 'supertest';
import { MockTaskUpstream } from '@tollgate/testing';
import { registeredRoutes } from '../support/declared-routes';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

// The bodies case sends every bad body to every task route (~35 s alone): room for a loaded CI machine.
jest.setTimeout(300_000);

const MJ_POSTS = [
  'submit/imagine',
  'submit/blend',
  'submit/describe',
  'submit/shorten',
  'submit/modal',
  'submit/action',
  'submit/change',
  'submit/simple-change',
  'submit/upload-discord-images',
  'insight-face/swap',
  'notify',
  'task/list-by-condition',
];
const MJ_GETS = ['task/:id/fetch', 'task/:id/image-seed', 'image/:id'];
const PREFIXES = ['', '/mj-fast', '/mj-relax', '/mj-turbo'];
const SUNO = ['POST /suno/submit/:action', 'POST /suno/fetch', 'GET /suno/fetch/:id'];
const ROUTES = [
  ...PREFIXES.flatMap((prefix) => [
    ...MJ_POSTS.map((tail) => `POST ${prefix}/mj/${tail}`),
    ...MJ_GETS.map((tail) => `GET ${prefix}/mj/${tail}`),
  ]),
  ...SUNO,
];

const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: deep(depth - 1) });
const BAD_VALUES: ReadonlyArray<unknown> = [
  null,
  {},
  ['a'],
  [[1]],
  deep(60),
  true,
  -1,
  1e308,
  '',
  '\u0000',
];
const FIELDS = [
  'prompt',
  'taskId',
  'action',
  'customId',
  'content',
  'ids',
  'index',
  'base64Array',
  'mv',
  'task_id',
  'continue_clip_id',
  'id',
  'status',
];

describe('task relay routes refuse bad input without a 500', () => {
  let t: TestApp;
  let upstream: MockTaskUpstream;
  let web: ConsoleClient;
  let key = '';

  beforeAll(async () => {
    upstream = await MockTaskUpstream.start();
    t = await startTestApp({ env: { TASK_POLL_INTERVAL_MS: '0' } });
    const root = await loginRoot(t.url);
    await root.put('/api/option/', { key: 'QuotaForNewUser', value: '100000000' });
    for (const [type, models] of [
      [
        5,
        'mj_imagine,mj_blend,mj_describe,mj_shorten,mj_modal,mj_upscale,mj_variation,mj_reroll,mj_upload,swap_face,mj_inpaint,mj_zoom,mj_pan,mj_custom_zoom,mj_high_variation,mj_low_variation',
      ],
      [36, 'suno_music,suno_lyrics'],
    ] as const) {
      const res = await root.post('/api/channel/', {
        type,
        name: `c${type}`,
        key: 'k',
        base_url: upstream.url,
        models,
        group: 'default',
      });
      expect(res.body.success).toBe(true);
    }
    web = await registerAndLogin(t.url, 'taskfuzz');
    await web.post('/api/token/', { name: 'k', unlimited_quota: true });
    key = ((await web.get('/api/token/?p=0&size=10')).body.data as Array<{ key: string }>)[0]!.key;
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  const quota = async () => (await web.get('/api/user/self')).body.data.quota as number;
  const pathOf = (route: string) =>
    route.split(' ')[1]!.replace(':id', '1712345678901234').replace(':action', 'music');

  /** Never a 500; a refusal is a JSON object in one of the task wires' shapes. */
  function expectRefusedOrServed(res: request.Response, what: string) {
    if (res.status >= 500) throw new Error(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
    if (res.status >= 400) {
      const body = res.body as Record<string, unknown>;
      const shaped =
        typeof body['description'] === 'string' ||
        typeof body['message'] === 'string' ||
        typeof (body['error'] as { message?: unknown } | undefined)?.message === 'string';
      expect({ what, shaped }).toEqual({ what, shaped: true });
    }
  }

  it('every task route the relay registers has a case', async () => {
    const routes = await registeredRoutes(t, [
      '/mj',
      '/mj-fast',
      '/mj-relax',
      '/mj-turbo',
      '/suno',
    ]);
    expect([...ROUTES].sort()).toEqual(routes);
  });

  it('without a key or with a wrong one: 401, nothing relayed', async () => {
    const before = upstream.requests.length;
    for (const route of ROUTES.filter((r) => !r.includes('/image/'))) {
      const [method] = route.split(' ') as [string];
      const call =
        method === 'GET'
          ? request(t.url).get(pathOf(route))
          : request(t.url).post(pathOf(route)).send({ prompt: 'x' });
      for (const auth of [undefined, 'Bearer sk-wrong', 'midjourney-proxy']) {
        const res = await (auth ? call.set('authorization', auth) : call);
        expect({ route, auth, status: res.status }).toEqual({ route, auth, status: 401 });
      }
    }
    expect(upstream.requests.length).toBe(before);
  });

  it('bad field values and bodies: never a 500, nothing billed when refused', async () => {
    for (const route of ROUTES.filter((r) => r.startsWith('POST'))) {
      // The mode prefixes (/mj-fast …) only pick the mode; the same handlers read the body, so
      // every bad field value goes to the plain routes and the malformed bodies to all of them.
      const plain = !PREFIXES.slice(1).some((prefix) => route.startsWith(`POST ${prefix}/`));
      const bodies: Array<string | object> = [
        'not json',
        '[]',
        '"x"',
        '',
        ...(plain
          ? FIELDS.flatMap((field) => BAD_VALUES.map((value) => ({ [field]: value })))
          : []),
      ];
      for (const body of bodies) {
        const before = await quota();
        const res = await request(t.url)
          .post(pathOf(route))
          .set('authorization', `Bearer sk-${key}`)
          .set('content-type', 'application/json')
          .send(typeof body === 'string' ? body : JSON.stringify(body));
        const what = `${route} ${JSON.stringify(body).slice(0, 60)}`;
        expectRefusedOrServed(res, what);
        if (res.status >= 400 || (res.body as { code?: unknown }).code === 4)
          expect({ what, quota: await quota() }).toEqual({ what, quota: before });
      }
    }
  });

  it('bad ids in paths: never a 500', async () => {
    for (const route of ROUTES.filter((r) => r.startsWith('GET'))) {
      for (const id of ['%00', 'x'.repeat(2000), '..%2F..%2Fetc', '%E4%B8%AD']) {
        const res = await request(t.url)
          .get(route.split(' ')[1]!.replace(':id', id))
          .set('authorization', `Bearer sk-${key}`);
        expectRefusedOrServed(res, `${route} ${id.slice(0, 20)}`);
      }
    }
  });
});
