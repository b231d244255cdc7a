import request from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { registeredRoutes } from '../support/declared-routes';
import { readStoredEvents } from '../support/e2e-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

/**
 * Every relay POST route with generated bad bodies (wrong types, absurd numbers, deep nesting, many
 * keys, not JSON, empty): never a 500, always an OpenAI-shaped error when refused, and nothing
 * billed for a refused request.
 */
const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: deep(depth - 1) });
const manyKeys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));

const BAD_VALUES: ReadonlyArray<unknown> = [
  null,
  {},
  ['a'],
  [[1]],
  deep(60),
  manyKeys,
  true,
  'abc',
  '\u200b',
  -1,
  1.5,
  1e308,
  '１２',
];
const FIELDS = [
  'model',
  'stream',
  'max_tokens',
  'messages',
  'input',
  'prompt',
  'n',
  'stream_options',
];
/** How a relay route's bad input is generated (each kind has its test below). */
type Case =
  | 'json' // a token route taking a JSON body: bad field values, bodies that are not JSON objects
  | 'multipart' // an audio upload: bad multipart
  | 'playground' // the console's session route: bad sessions, and the json bodies
  | 'read' // a token GET: bad credentials, paths and queries
  | 'not_implemented' // answered 501 for a valid token, whatever comes with it
  | 'anthropic' // Anthropic's Messages API: bad Anthropic bodies, errors in Anthropic's shape
  | 'gemini' // Gemini's generateContent: bad Gemini bodies, errors in Google's shape
  | 'preflight'; // CORS preflight

/**
 * Every route the relay registers (its raw Fastify routes: no Nest metadata lists them). A route
 * registered without a row here fails the first test: new relay routes join this table.
 */
const CASES: Readonly<Record<string, Case>> = {
  'POST /v1/chat/completions': 'json',
  'POST /v1/completions': 'json',
  'POST /v1/embeddings': 'json',
  'POST /v1/moderations': 'json',
  'POST /v1/images/generations': 'json',
  'POST /v1/audio/speech': 'json',
  'POST /v1/rerank': 'json',
  'POST /v1/responses': 'json',
  'POST /v1/engines/:model/embeddings': 'json',
  'POST /v1/audio/transcriptions': 'multipart',
  'POST /v1/audio/translations': 'multipart',
  'POST /pg/chat/completions': 'playground',
  'POST /v1/messages': 'anthropic',
  'POST /v1/messages/count_tokens': 'anthropic',
  'POST /v1beta/models/*': 'gemini',
  'GET /v1beta/models': 'read',
  'GET /v1beta/models/*': 'read',
  'GET /v1/models': 'read',
  'GET /v1/models/:model': 'read',
  'GET /dashboard/billing/subscription': 'read',
  'GET /dashboard/billing/usage': 'read',
  'GET /v1/dashboard/billing/subscription': 'read',
  'GET /v1/dashboard/billing/usage': 'read',
  'POST /v1/images/edits': 'not_implemented',
  'POST /v1/images/variations': 'not_implemented',
  'GET /v1/files': 'not_implemented',
  'POST /v1/files': 'not_implemented',
  'DELETE /v1/files/:id': 'not_implemented',
  'GET /v1/files/:id': 'not_implemented',
  'GET /v1/files/:id/content': 'not_implemented',
  'POST /v1/fine-tunes': 'not_implemented',
  'GET /v1/fine-tunes': 'not_implemented',
  'GET /v1/fine-tunes/:id': 'not_implemented',
  'POST /v1/fine-tunes/:id/cancel': 'not_implemented',
  'GET /v1/fine-tunes/:id/events': 'not_implemented',
  'DELETE /v1/models/:model': 'not_implemented',
  'OPTIONS /v1/*': 'preflight',
};

/** The routes of one kind, as `[method, path]` with their parameters filled in. */
const routesOf = (kind: Case): Array<[string, string]> =>
  Object.entries(CASES)
    .filter(([, k]) => k === kind)
    .map(([route]) => {
      const [method, url] = route.split(' ') as [string, string];
      const path = url
        .replace('/v1beta/models/*', '/v1beta/models/gpt-4o-mini')
        .replace(':model', 'gpt-4o-mini')
        .replace(':id', 'file-1')
        .replace('*', 'chat/completions');
      return [method, path];
    });
const ROUTES = routesOf('json').map(([, path]) => path);

describe('relay routes refuse bad input without a 500', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let key = '';
  let userId = 0;
  /** The token's owner signed in to the console (the playground's caller). */
  let web: ConsoleClient;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    const root = await loginRoot(t.url);
    for (const [k, value] of [
      ['QuotaForNewUser', '1000000'],
      ['ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'tts-1': 7.5, 'dall-e-2': 1 })],
    ]) {
      expect((await root.put('/api/option/', { key: k, value })).body.success).toBe(true);
    }
    const channel = await root.post('/api/channel/', {
      type: 1,
      name: 'mock',
      key: 'sk-up',
      base_url: upstream.url,
      models: 'gpt-4o-mini,tts-1,dall-e-2,whisper-1',
      group: 'default',
    });
    expect(channel.body.success).toBe(true);
    web = await registerAndLogin(t.url, 'badinput');
    userId = web.userId;
    await web.post('/api/token/', { name: 'k', remain_quota: 500000 });
    key = ((await web.get('/api/token/?p=0&size=10')).body.data as Array<{ key: string }>)[0]!.key;
  });

  afterAll(async () => {
    await t.close();
    await upstream.close();
  });

  const send = (route: string, body: string | object, contentType = 'application/json') =>
    request(t.url)
      .post(route)
      .set('authorization', `Bearer sk-${key}`)
      .set('content-type', contentType)
      .send(typeof body === 'string' ? body : JSON.stringify(body));

  /** Refused the OpenAI way (an error object naming the request id), never a 500. */
  const expectRefusedOrServed = (res: request.Response, what: string) => {
    if (res.status >= 500 && res.status !== 501)
      throw new Error(`${what} → ${res.status} ${res.text.slice(0, 200)}`);
    if (res.status >= 400)
      expect({ what, error: res.body.error as unknown }).toEqual({
        what,
        error: expect.objectContaining({ message: expect.stringMatching(/request id/) }),
      });
  };

  it('every route the relay registers has a case', async () => {
    const routes = await registeredRoutes(t, ['/v1', '/v1beta', '/pg', '/dashboard']);
    expect(Object.keys(CASES).sort()).toEqual(routes);
  });

  it('bad field values', async () => {
    const statuses = new Map<number, number>();
    for (const route of ROUTES) {
      for (const field of FIELDS) {
        for (const value of BAD_VALUES) {
          const body = {
            model: 'gpt-4o-mini',
            messages: [{ role: 'user', content: 'x' }],
            [field]: value,
          };
          const res = await send(route, body);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          if (res.status >= 500)
            throw new Error(
              `${route} ${field}=${JSON.stringify(value)?.slice(0, 40)} → ${res.status} ${res.text.slice(0, 200)}`,
            );
          if (res.status >= 400)
            expect(res.body.error).toEqual(
              expect.objectContaining({ message: expect.stringMatching(/request id/) }),
            );
        }
      }
    }
    expect([...statuses.keys()].every((s) => s < 500)).toBe(true);
  });

  it('bodies that are not a JSON object, and bad multipart', async () => {
    for (const route of ROUTES) {
      for (const body of ['', 'null', '[]', '"x"', '{bad json', '{"model":'.repeat(1000)]) {
        const res = await send(route, body);
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
      }
    }
    const before = readStoredEvents(t.dataDir, { type: 'RequestRelayed' }).filter(
      (e) => e.data['userId'] === userId,
    ).length;
    for (const [, route] of routesOf('multipart')) {
      for (const [body, type] of [
        ['plain text', 'text/plain'],
        ['--x\r\nno headers end', 'multipart/form-data; boundary=x'],
        ['', 'multipart/form-data'],
      ]) {
        const res = await send(route, body!, type);
        expect(res.status).toBeLessThan(500);
      }
    }
    const after = readStoredEvents(t.dataDir, { type: 'RequestRelayed' }).filter(
      (e) => e.data['userId'] === userId,
    ).length;
    expect(after).toBe(before);
  });
  it('the playground: no or a wrong session is 401, bad bodies never a 500', async () => {
    const [[, path]] = routesOf('playground') as [[string, string]];
    const body = JSON.stringify({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
    });
    const strangers = [
      request(t.url).post(path),
      request(t.url).post(path).set('authorization', `Bearer sk-${key}`),
      request(t.url)
        .post(path)
        .set('authorization', 'Bearer ' + 'x'.repeat(4000)),
      web.agent.post(path), // the session without New-Api-User
      web.agent.post(path).set('New-Api-User', String(userId + 1)),
      web.agent.post(path).set('New-Api-User', 'abc'),
    ];
    for (const [i, stranger] of strangers.entries()) {
      const res = await stranger.set('content-type', 'application/json').send(body);
      expect({ i, status: res.status }).toEqual({ i, status: 401 });
      expectRefusedOrServed(res, `stranger ${i}`);
    }
    for (const field of FIELDS) {
      for (const value of BAD_VALUES) {
        const res = await web
          .post(path)
          .set('content-type', 'application/json')
          .send(
            JSON.stringify({
              model: 'gpt-4o-mini',
              messages: [{ role: 'user', content: 'x' }],
              [field]: value,
            }),
          );
        expectRefusedOrServed(res, `${field}=${JSON.stringify(value)?.slice(0, 40)}`);
      }
    }
    for (const raw of ['', 'null', '[]', '"x"', '{bad json', '{"model":'.repeat(1000)]) {
      const res = await web.post(path).set('content-type', 'application/json').send(raw);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('token reads: bad credentials are 401; bad paths and queries never a 500', async () => {
    const credentials = [
      '',
      'Bearer ',
      'Bearer sk-nope',
      'Basic abc',
      'Bearer ' + 'x'.repeat(4000),
    ];
    const queries = [
      '?%00',
      `?x=${'y'.repeat(3000)}`,
      `?${Array.from({ length: 40 }, (_, i) => `q${i}=1`).join('&')}`,
    ];
    const models = [
      '%00',
      '%E2%80%8B',
      'x'.repeat(100), // Fastify's default maxParamLength
      '..%2F..%2Fapi%2Fstatus',
      'gpt-4o-mini%00',
    ];
    for (const [, path] of routesOf('read')) {
      for (const credential of credentials) {
        const call = request(t.url).get(path);
        const res = await (credential ? call.set('authorization', credential) : call);
        expect({ path, credential: credential.slice(0, 20), status: res.status }).toEqual({
          path,
          credential: credential.slice(0, 20),
          status: 401,
        });
        expectRefusedOrServed(res, `${path} ${credential.slice(0, 20)}`);
      }
      for (const query of queries) {
        const res = await request(t.url)
          .get(`${path}${query}`)
          .set('authorization', `Bearer sk-${key}`);
        expect(res.status).toBe(200);
      }
    }
    for (const model of models) {
      const res = await request(t.url)
        .get(`/v1/models/${model}`)
        .set('authorization', `Bearer sk-${key}`);
      expect({ model: model.slice(0, 20), status: res.status }).toEqual({
        model: model.slice(0, 20),
        status: 404,
      });
      expectRefusedOrServed(res, `model ${model.slice(0, 20)}`);
    }
    // A parameter over the router's maxParamLength (2048 on the relay's front): the router's 414,
    // in the relay's shape like every answer under /v1.
    const tooLong = await request(t.url)
      .get(`/v1/models/${'x'.repeat(3000)}`)
      .set('authorization', `Bearer sk-${key}`);
    expect(tooLong.status).toBe(414);
    expectRefusedOrServed(tooLong, 'model id over the router limit');
  });

  it("Anthropic's routes: bad bodies are refused in Anthropic's shape, never a 500, nothing billed", async () => {
    const receiptsBefore = readStoredEvents(t.dataDir, { type: 'RequestRelayed' }).length;
    const fields = [
      'model',
      'max_tokens',
      'messages',
      'system',
      'stream',
      'tools',
      'tool_choice',
      'metadata',
    ];
    for (const [, path] of routesOf('anthropic')) {
      for (const field of fields) {
        for (const value of BAD_VALUES) {
          const res = await send(path, {
            model: 'gpt-4o-mini',
            max_tokens: 5,
            messages: [{ role: 'user', content: 'x' }],
            [field]: value,
          });
          expectRefusedOrServed(res, `${path} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
          if (res.status >= 400) expect(res.body.type).toBe('error');
        }
      }
      for (const raw of ['', 'null', '[]', '"x"', '{bad json']) {
        const res = await send(path, raw);
        expect({ path, raw, status: res.status }).toEqual({ path, raw, status: 400 });
        expect(res.body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
      }
      const anonymous = await request(t.url).post(path).send('{}');
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({
        type: 'error',
        error: { type: 'authentication_error' },
      });
    }
    // Refused bodies bill nothing (the valid ones above were relayed and billed: count those).
    const after = readStoredEvents(t.dataDir, { type: 'RequestRelayed' }).length;
    expect(after).toBeGreaterThanOrEqual(receiptsBefore);
  });

  it("Gemini's route: bad bodies and actions are refused in Google's shape, never a 500", async () => {
    const fields = ['contents', 'systemInstruction', 'generationConfig', 'tools', 'toolConfig'];
    const base = '/v1beta/models/gpt-4o-mini';
    for (const action of [':generateContent', ':streamGenerateContent?alt=sse']) {
      for (const field of fields) {
        for (const value of BAD_VALUES) {
          const res = await send(`${base}${action}`, {
            contents: [{ role: 'user', parts: [{ text: 'x' }] }],
            [field]: value,
          });
          expectRefusedOrServed(res, `${action} ${field}=${JSON.stringify(value)?.slice(0, 40)}`);
          if (res.status >= 400) expect(typeof res.body.error.status).toBe('string');
        }
      }
      for (const raw of ['', 'null', '[]', '"x"', '{bad json']) {
        const res = await send(`${base}${action}`, raw);
        expect({ action, raw, status: res.status }).toEqual({ action, raw, status: 400 });
        expect(res.body.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      }
    }
    for (const path of [
      `${base}:embedContent`,
      `${base}`,
      '/v1beta/models/:generateContent',
      `${base}:x:y`,
    ]) {
      const res = await send(path, { contents: [] });
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.body.error).toMatchObject({ code: 404, status: 'NOT_FOUND' });
    }
    const anonymous = await request(t.url).post(`${base}:generateContent`).send('{}');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error).toMatchObject({ code: 401, status: 'UNAUTHENTICATED' });
  });

  it('not-implemented routes: 501 with a token whatever comes with it, 401 without one', async () => {
    for (const [method, path] of routesOf('not_implemented')) {
      const verb = method.toLowerCase() as 'get' | 'post' | 'delete';
      const call = () => request(t.url)[verb](path);
      for (const raw of ['', '{bad json', '[]', JSON.stringify({ file: deep(60) })]) {
        const res = await call()
          .set('authorization', `Bearer sk-${key}`)
          .set('content-type', 'application/json')
          .send(raw);
        expect({ method, path, status: res.status }).toEqual({ method, path, status: 501 });
        expect(res.body.error.code).toBe('api_not_implemented');
      }
      const anonymous = await call();
      expect({ method, path, status: anonymous.status }).toEqual({ method, path, status: 401 });
      expectRefusedOrServed(anonymous, `${method} ${path}`);
    }
  });

  it('the CORS preflight answers 204 on any /v1 path, with or without a body', async () => {
    for (const [, path] of routesOf('preflight')) {
      for (const tail of ['', '/../../x', '%00']) {
        const res = await request(t.url).options(`${path}${tail}`).send('{bad json');
        expect({ path: `${path}${tail}`, status: res.status }).toEqual({
          path: `${path}${tail}`,
          status: 204,
        });
        expect(res.headers['access-control-allow-origin']).toBe('*');
      }
    }
  });
});
