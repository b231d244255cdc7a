import request from 'supertest';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents } from '../support/e2e-helpers';
import { loginRoot, registerAndLogin, startTestApp, type TestApp } from '../support/test-app';

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
const ROUTES = [
  '/v1/chat/completions',
  '/v1/completions',
  '/v1/embeddings',
  '/v1/moderations',
  '/v1/images/generations',
  '/v1/audio/speech',
  '/v1/rerank',
  '/v1/engines/gpt-4o-mini/embeddings',
];

describe('relay routes refuse bad input without a 500', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let key = '';
  let userId = 0;

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
    const web = await registerAndLogin(t.url, 'badinput');
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
    for (const route of ['/v1/audio/transcriptions', '/v1/audio/translations']) {
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
});
