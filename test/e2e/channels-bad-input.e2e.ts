import { countStoredEvents } from '../support/e2e-helpers';
import {
  createAdmin,
  loginRoot,
  startTestApp,
  type ConsoleClient,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

/**
 * Every channel route with generated bad values (wrong types, odd numerals, invisible text, deep
 * nesting, many keys): never a 500, always a clear refusal, and no event appended.
 */
const deep = (depth: number): unknown => (depth === 0 ? 'x' : { a: deep(depth - 1) });
const manyKeys = Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i]));

const BAD_VALUES: ReadonlyArray<[string, unknown]> = [
  ['object', {}],
  ['array', ['a']],
  ['nested array', [[1]]],
  ['deep nesting', deep(60)],
  ['many keys', manyKeys],
  ['boolean', true],
];
/** Values wrong for a number field. */
const BAD_NUMBERS: ReadonlyArray<[string, unknown]> = [
  ...BAD_VALUES,
  ['word', 'abc'],
  ['full-width digits', '１２'],
  ['fraction', 1.5],
  ['huge', '1e309'],
  ['hex', '0x10'],
  ['invisible', '\u200b'],
];
/** Values wrong for a string field. */
const BAD_STRINGS: ReadonlyArray<[string, unknown]> = [...BAD_VALUES, ['number', 12345]];

const STRING_FIELDS = [
  'name',
  'key',
  'base_url',
  'other',
  'models',
  'group',
  'model_mapping',
  'status_code_mapping',
  'test_model',
  'tag',
  'setting',
  'param_override',
];
const NUMBER_FIELDS = ['type', 'priority', 'weight', 'auto_ban', 'max_input_tokens', 'status'];

const BAD_IDS = ['abc', '-1', '0', '1.5', '１', '%E2%80%8B', '99999999999999999999', '1e3', '0x1'];

describe('channel routes refuse bad input without a 500 or an event', () => {
  let t: TestApp;
  let admin: ConsoleClient;
  const valid = () => ({
    type: 1,
    name: 'fuzz',
    key: 'sk-fuzz',
    base_url: 'http://127.0.0.1:9',
    models: 'gpt-4o-mini',
    group: 'default',
  });

  beforeAll(async () => {
    t = await startTestApp();
    admin = await createAdmin(t.url, await loginRoot(t.url), 'fuzzadmin');
    // One real channel so update/copy/test paths reach their validation on an existing id.
    const res = await admin.post('/api/channel/', valid());
    expect(res.body.success).toBe(true);
  });
  afterAll(() => t.close());

  async function expectRefused(
    send: () => Promise<{ status: number; body: { success?: unknown } }>,
  ) {
    const before = countStoredEvents(t.dataDir);
    const res = await send();
    expect(res.status).not.toBe(500);
    if (res.status === 200) expect(res.body.success).toBe(false);
    else expect(res.status).toBeGreaterThanOrEqual(400);
    expect(countStoredEvents(t.dataDir)).toBe(before);
  }

  const fieldCases = [
    ...STRING_FIELDS.flatMap((field) =>
      BAD_STRINGS.map(([what, value]) => [field, what, value] as const),
    ),
    ...NUMBER_FIELDS.flatMap((field) =>
      BAD_NUMBERS.map(([what, value]) => [field, what, value] as const),
    ),
  ];

  it.each(fieldCases)('POST /api/channel/ with %s = %s', async (field, _what, value) => {
    await expectRefused(() => admin.post('/api/channel/', { ...valid(), [field]: value }));
  });

  it.each(fieldCases)('PUT /api/channel/ with %s = %s', async (field, _what, value) => {
    await expectRefused(() => admin.put('/api/channel/', { id: 1, [field]: value }));
  });

  it.each([
    ['not an object', [1, 2]],
    ['a string', 'text'],
    ['deep', deep(60)],
    ['many keys', manyKeys],
    ['empty', {}],
  ])('bodies that are %s', async (_what, body) => {
    await expectRefused(() => admin.post('/api/channel/').send(body as object));
    await expectRefused(() => admin.put('/api/channel/').send(body as object));
    await expectRefused(() => admin.post('/api/channel/batch').send(body as object));
    await expectRefused(() => admin.post('/api/channel/fetch_models').send(body as object));
  });

  it.each(BAD_NUMBERS)('PUT id = %s', async (_what, id) => {
    await expectRefused(() => admin.put('/api/channel/', { id, status: 2 }));
  });

  it.each([
    ...BAD_VALUES,
    ['strings', ['a']],
    ['zero', [0]],
    ['negative', [-1]],
    ['fraction', [1.5]],
    ['empty', []],
  ])('POST /api/channel/batch ids = %s', async (_what, ids) => {
    await expectRefused(() => admin.post('/api/channel/batch', { ids }));
  });

  it.each(BAD_IDS)('path id %s on every :id route', async (id) => {
    for (const send of [
      () => admin.get(`/api/channel/${id}`),
      () => admin.delete(`/api/channel/${id}/`),
      () => admin.post(`/api/channel/copy/${id}`),
      () => admin.get(`/api/channel/test/${id}`),
      () => admin.get(`/api/channel/update_balance/${id}/`),
      () => admin.get(`/api/channel/fetch_models/${id}`),
    ])
      await expectRefused(send);
  });

  it.each([
    ['p', '-1'],
    ['p', '99999999999999999999'],
    ['page_size', '0'],
    ['page_size', '100000'],
    ['keyword', 'x'.repeat(500)],
  ])('list query %s=%s', async (name, value) => {
    const res = await admin.get(`/api/channel/search?${name}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
  });

  it.each(BAD_STRINGS)('fetch_models key = %s', async (_what, key) => {
    await expectRefused(() => admin.post('/api/channel/fetch_models', { type: 1, key }));
  });

  it('a name of invisible characters only is no name', async () => {
    await expectRefused(() =>
      admin.post('/api/channel/', { ...valid(), name: '\u200b\u200d \ufeff' }),
    );
  });
});
