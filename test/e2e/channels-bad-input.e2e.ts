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
 * Channel bad input that the fuzz suite (test/e2e/fuzz.e2e.ts) does not generate: full-width and
 * invisible numerals, the id 0, empty bodies and id lists, an invisible-only name, and search
 * refusals answered as HTTP 200 envelopes. Wrong types, objects, arrays, deep nesting, many keys,
 * odd numerals, bad path ids and the other query values of every channel route are the fuzz
 * suite's rows (it also checks nothing is logged at error level). Here too: never a 500, always a
 * clear refusal, and no event appended.
 */
const NUMBER_FIELDS = ['type', 'priority', 'weight', 'auto_ban', 'max_input_tokens', 'status'];
/** Numerals the fuzz suite's kinds do not include. */
const ODD_NUMERALS: ReadonlyArray<[string, unknown]> = [
  ['full-width digits', '１２'],
  ['invisible', '\u200b'],
];
const BAD_IDS = ['0', '１'];

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

  const fieldCases = NUMBER_FIELDS.flatMap((field) =>
    ODD_NUMERALS.map(([what, value]) => [field, what, value] as const),
  );

  it.each(fieldCases)('POST /api/channel/ with %s = %s', async (field, _what, value) => {
    await expectRefused(() => admin.post('/api/channel/', { ...valid(), [field]: value }));
  });

  it.each(fieldCases)('PUT /api/channel/ with %s = %s', async (field, _what, value) => {
    await expectRefused(() => admin.put('/api/channel/', { id: 1, [field]: value }));
  });

  it('empty bodies', async () => {
    await expectRefused(() => admin.post('/api/channel/').send({}));
    await expectRefused(() => admin.put('/api/channel/').send({}));
    await expectRefused(() => admin.post('/api/channel/batch').send({}));
    await expectRefused(() => admin.post('/api/channel/fetch_models').send({}));
  });

  it.each(ODD_NUMERALS)('PUT id = %s', async (_what, id) => {
    await expectRefused(() => admin.put('/api/channel/', { id, status: 2 }));
  });

  it('POST /api/channel/batch with no ids', async () => {
    await expectRefused(() => admin.post('/api/channel/batch', { ids: [] }));
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
    ['p', 'abc'],
    ['p', '-1'],
    ['page_size', '0'],
    ['page_size', '100000'],
    ['keyword', 'x'.repeat(500)],
  ])('list query %s=%s', async (name, value) => {
    const res = await admin.get(`/api/channel/search?${name}=${encodeURIComponent(value)}`);
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(false);
  });

  it('a name of invisible characters only is no name', async () => {
    await expectRefused(() =>
      admin.post('/api/channel/', { ...valid(), name: '\u200b\u200d \ufeff' }),
    );
  });
});
