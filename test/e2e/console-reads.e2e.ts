import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../apps/gateway/src/infrastructure/injection-tokens';
import { USERS } from '../../apps/gateway/src/users/user.document';
import { loginRoot, startTestApp, type ConsoleClient, type TestApp } from '../support/test-app';

jest.setTimeout(60_000);

/** Times one GET on a fresh connection. */
async function timedGet(url: string): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { connection: 'close' } });
  await res.text();
  return { ms: performance.now() - started, status: res.status };
}

/**
 * Console reads never stall the process: read-store queries run on worker threads, so while a slow
 * one runs, /api/status (and the relay on the same event loop) still answers at once.
 */
describe('console reads off the event loop', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let store: ReadStore;

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
    store = t.app.get<ReadStore>(READ_STORE);
    // Read-model rows written straight into the users collection (not events): 20 000 users, a few of
    // them with a display name that makes a backtracking pattern cost tens of ms per row.
    const slow = 'a'.repeat(23) + '!';
    await store.transaction(async (session) => {
      const users = session.collection(USERS);
      for (let i = 0; i < 20_000; i++) {
        const id = 100_000 + i;
        await users.put({
          _id: String(id),
          id,
          username: `seeded${id}`,
          username_lower: `seeded${id}`,
          display_name: i < 8 ? slow : `Seeded ${id}`,
          email: `seeded${id}@example.com`,
          role: 1,
          status: 1,
          group: 'default',
          quota: 0,
          used_quota: 0,
          request_count: 0,
          aff_code: `s${id}`,
        });
      }
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /api/status promptly while a slow read-store query runs', async () => {
    const slowQuery = (async () => {
      const started = performance.now();
      const found = await store.collection(USERS).find({ display_name: { $regex: '^(a+)+$' } });
      return { found, ms: performance.now() - started };
    })();
    const statuses: number[] = [];
    let done = false;
    void slowQuery.finally(() => (done = true));
    while (!done) {
      const { ms, status } = await timedGet(`${t.url}/api/status`);
      expect(status).toBe(200);
      statuses.push(ms);
    }
    const { found, ms } = await slowQuery;
    expect(found).toEqual([]);
    expect(ms).toBeGreaterThan(200); // the query really was slow...
    expect(statuses.length).toBeGreaterThan(3); // ...status was asked several times meanwhile...
    expect(Math.max(...statuses)).toBeLessThan(Math.max(150, ms / 2)); // ...and never waited for it
  });

  it('searches and pages the seeded users through the API, with exact totals', async () => {
    const search = await root.get('/api/user/search?keyword=eded10001&p=1&page_size=10');
    expect(search.body.success).toBe(true);
    const expected = Array.from({ length: 20_000 }, (_, i) => 100_000 + i).filter((id) =>
      `seeded${id}`.includes('eded10001'),
    );
    expect(search.body.data.total).toBe(expected.length);
    expect(search.body.data.items.map((u: { id: number }) => u.id)).toEqual(
      expected.sort((a, b) => b - a).slice(0, 10),
    );
    const page = await root.get('/api/user/?p=3&page_size=10');
    expect(page.body.data.total).toBe(20_000 + 1); // the seeded rows and root
    expect(page.body.data.items.map((u: { id: number }) => u.id)).toEqual(
      Array.from({ length: 10 }, (_, i) => 119_999 - 20 - i),
    );
  });
});
