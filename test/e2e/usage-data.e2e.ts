/**
 * The data dashboard's API (GET /api/data/self, GET /api/data/) end to end: relay calls with the
 * openai SDK through the mock upstream, then the hourly rows they produced; the one-month cap on
 * one's own span; the admin's username filter; and the rows rebuilt from the log after a restart.
 */
import type { Socket } from 'socket.io-client';
import request from 'supertest';
import type { ChangedEvent, QuotaDataRowDto } from '@tollgate/contracts';
import { createEventStore } from '@tollgate/event-store';
import { createReadStore, rebuildProjections } from '@tollgate/read-store';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { PUSH_INTERVAL_MS } from '../../apps/gateway/src/realtime/realtime.gateway';
import {
  QUOTA_DATA,
  QUOTA_DATA_TOTAL,
} from '../../apps/gateway/src/usage-data/quota-data.document';
import { quotaDataProjection } from '../../apps/gateway/src/usage-data/quota-data.projection';
import { openConsoleSocket, socketConnected } from '../support/console-socket';
import {
  expectFailure,
  readStoredEvents,
  sessionCookieOf,
  waitUntil,
} from '../support/e2e-helpers';
import {
  addRelayChannel,
  createRelayToken,
  relaySdk,
  type Receipt,
} from '../support/relay-helpers';
import {
  ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const FORBIDDEN = '无权进行此操作，权限不足';
const SPAN_TOO_LONG = '时间跨度不能超过 1 个月';
const DAY = 24 * 3600;
const MONTH = 30 * DAY;

/** The rows new-api's quota_data would hold for these receipts: per user × model × hour. */
function expectedRows(dataDir: string, username: string, userId: number): QuotaDataRowDto[] {
  const rows = new Map<string, QuotaDataRowDto>();
  for (const event of readStoredEvents(dataDir, { type: 'RequestRelayed' })) {
    const receipt = event.data as unknown as Receipt;
    if (receipt.userId !== userId) continue;
    const at = Date.parse(event.metadata['occurredAt'] as string) / 1000;
    const hour = Math.floor(at / 3600) * 3600;
    const key = `${receipt.model}:${hour}`;
    const row = rows.get(key) ?? {
      user_id: userId,
      username,
      model_name: receipt.model,
      created_at: hour,
      token_used: 0,
      count: 0,
      quota: 0,
    };
    row.count += 1;
    row.quota += receipt.quota;
    row.token_used += receipt.promptTokens + receipt.completionTokens;
    rows.set(key, row);
  }
  return sortRows([...rows.values()]);
}

const sortRows = (rows: QuotaDataRowDto[]) =>
  [...rows].sort(
    (a, b) =>
      a.created_at - b.created_at ||
      a.model_name.localeCompare(b.model_name) ||
      (a.user_id ?? 0) - (b.user_id ?? 0),
  );

const dataOf = (res: { body: { success: boolean; data: unknown } }) => {
  expect(res.body.success).toBe(true);
  return sortRows(res.body.data as QuotaDataRowDto[]);
};

describe('usage data (dashboard API, whole app, openai SDK, mock upstream)', () => {
  let t: TestApp | undefined;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let bob: ConsoleClient;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    root = await loginRoot(t.url);
    for (const [key, value] of [
      ['ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075, 'gpt-4o': 1.25 })],
      ['CompletionRatio', JSON.stringify({ 'gpt-4o-mini': 4, 'gpt-4o': 4 })],
      ['QuotaForNewUser', '1000000'],
    ] as const) {
      expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
        success: true,
      });
    }
    await addRelayChannel(root, t.app.get(RoutingTable), {
      type: 1,
      name: 'mock',
      key: 'sk-upstream',
      base_url: upstream.url,
      models: 'gpt-4o-mini,gpt-4o',
      group: 'default',
    });
    alice = await registerAndLogin(t.url, 'dash_alice');
    bob = await registerAndLogin(t.url, 'dash_bob');
    upstream.setDefaults({ usage: { prompt_tokens: 100, completion_tokens: 20 } });
    const call = async (web: ConsoleClient, model: string, stream = false) => {
      const { key } = await createRelayToken(web, { name: `t-${model}`, unlimited_quota: true });
      const sdk = relaySdk(t!.url, key);
      if (!stream) {
        await sdk.chat.completions.create({ model, messages: [{ role: 'user', content: 'hi' }] });
        return;
      }
      const chunks = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      for await (const _chunk of chunks) void _chunk;
    };
    await call(alice, 'gpt-4o-mini');
    await call(alice, 'gpt-4o-mini', true);
    await call(alice, 'gpt-4o');
    await call(bob, 'gpt-4o-mini');
    const counted = async (web: ConsoleClient) =>
      ((await web.get('/api/data/self')).body.data as QuotaDataRowDto[]).reduce(
        (n, r) => n + r.count,
        0,
      );
    await waitUntil(async () => (await counted(alice)) === 3, "alice's rows", 10_000);
    await waitUntil(async () => (await counted(bob)) === 1, "bob's rows", 10_000);
  });

  afterAll(async () => {
    await t?.close();
    await upstream.close();
  });

  it("/api/data/self: the caller's hourly rows, as the relay calls made them", async () => {
    const rows = dataOf(await alice.get('/api/data/self'));
    expect(rows).toEqual(expectedRows(t!.dataDir, 'dash_alice', alice.userId));
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(3);
    expect(new Set(rows.map((r) => r.model_name))).toEqual(new Set(['gpt-4o-mini', 'gpt-4o']));
    for (const row of rows) {
      expect(row.created_at % 3600).toBe(0);
      expect(row.token_used).toBe(120 * row.count);
      expect(row.quota).toBeGreaterThan(0);
    }
    // gpt-4o-mini: round((100 + 20 × 4) × 0.075) = 14 per call.
    const mini = rows.filter((r) => r.model_name === 'gpt-4o-mini');
    expect(mini.reduce((n, r) => n + r.quota, 0)).toBe(28);
    // Bob's own rows only.
    const bobs = dataOf(await bob.get('/api/data/self'));
    expect(bobs).toEqual(expectedRows(t!.dataDir, 'dash_bob', bob.userId));
    expect(bobs.every((r) => r.user_id === bob.userId)).toBe(true);
  });

  it('/api/data/self: a span over 30 days is refused in the envelope; 30 days exactly is not', async () => {
    const now = Math.floor(Date.now() / 1000);
    expectFailure(
      await alice.get(`/api/data/self?start_timestamp=${now - MONTH - 1}&end_timestamp=${now}`),
      SPAN_TOO_LONG,
    );
    expectFailure(
      await alice.get(`/api/data/self?start_timestamp=0&end_timestamp=${now}`),
      SPAN_TOO_LONG,
    );
    const month = dataOf(
      await alice.get(
        `/api/data/self?start_timestamp=${now - MONTH + 3600}&end_timestamp=${now + 3600}`,
      ),
    );
    expect(month.reduce((n, r) => n + r.count, 0)).toBe(3);
    // A range that ends before the calls holds none of them.
    expect(
      dataOf(
        await alice.get(
          `/api/data/self?start_timestamp=${now - 3 * DAY}&end_timestamp=${now - 2 * DAY}`,
        ),
      ),
    ).toEqual([]);
    // Out of range: the envelope, never a 500. (Not a number at all, like `yesterday`, is the
    // bound left out, as new-api reads it.)
    const bad = await alice.get('/api/data/self?start_timestamp=-1');
    expect(bad.status).toBe(200);
    expect(bad.body.success).toBe(false);
  });

  it("/api/data/: admins only; a username gives that user's rows, none sums everyone per model × hour", async () => {
    expectFailure(await alice.get('/api/data/'), FORBIDDEN);
    expectFailure(await alice.get('/api/data/?username=dash_bob'), FORBIDDEN);

    const aliceRows = dataOf(await root.get('/api/data/?username=dash_alice'));
    expect(aliceRows).toEqual(expectedRows(t!.dataDir, 'dash_alice', alice.userId));
    const bobRows = dataOf(await root.get('/api/data/?username=dash_bob'));
    expect(bobRows).toEqual(expectedRows(t!.dataDir, 'dash_bob', bob.userId));
    expect(dataOf(await root.get('/api/data/?username=nobody'))).toEqual([]);

    // Everyone: one row per model × hour, without user fields, summing both users.
    const everyone = dataOf(await root.get('/api/data/'));
    expect(everyone.every((r) => r.user_id === undefined && r.username === undefined)).toBe(true);
    const total = (rows: QuotaDataRowDto[], model: string, field: 'count' | 'quota') =>
      rows.filter((r) => r.model_name === model).reduce((n, r) => n + r[field], 0);
    for (const model of ['gpt-4o-mini', 'gpt-4o'])
      for (const field of ['count', 'quota'] as const)
        expect(total(everyone, model, field)).toBe(
          total(aliceRows, model, field) + total(bobRows, model, field),
        );
    expect(total(everyone, 'gpt-4o-mini', 'count')).toBe(3);
    const keys = everyone.map((r) => `${r.model_name}:${r.created_at}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Admins are not capped at a month.
    expect(dataOf(await root.get(`/api/data/?start_timestamp=0&end_timestamp=${2 ** 40}`))).toEqual(
      everyone,
    );
  });

  it('a relay call pushes `usage` to its user and admins once the rows hold it, not to others', async () => {
    const sockets: Socket[] = [];
    const listen = async (username: string) => {
      const login = await request(t!.url)
        .post('/api/user/login')
        .send({ username, password: username === 'root' ? '123456' : 'password123' });
      const socket = openConsoleSocket(t!.url, sessionCookieOf(login));
      sockets.push(socket);
      const pushes: ChangedEvent[] = [];
      socket.on('changed', (event: ChangedEvent) => pushes.push(event));
      await socketConnected(socket);
      return pushes;
    };
    try {
      const [toAlice, toBob, toRoot] = [
        await listen('dash_alice'),
        await listen('dash_bob'),
        await listen('root'),
      ];
      const { key } = await createRelayToken(alice, { name: 'live', unlimited_quota: true });
      // Pushes of the earlier calls may still be waiting for their throttle window: let them go.
      await new Promise((resolve) => setTimeout(resolve, 3 * PUSH_INTERVAL_MS));
      for (const pushes of [toAlice, toBob, toRoot]) pushes.length = 0;
      await relaySdk(t!.url, key).chat.completions.create({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: 'again' }],
      });
      await waitUntil(() => toAlice.some((e) => e.topic === 'usage'), 'usage push to alice');
      // Sent once the projection wrote the rows: a refetch now sees the call.
      const rows = dataOf(await alice.get('/api/data/self'));
      expect(rows.reduce((n, r) => n + r.count, 0)).toBe(4);
      await waitUntil(() => toRoot.some((e) => e.topic === 'usage'), 'usage push to root');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(toBob.some((e) => e.topic === 'usage')).toBe(false);
      expect(JSON.stringify(toAlice)).not.toContain(key);
    } finally {
      for (const socket of sockets) socket.disconnect();
    }
  });

  it('the rows are a projection of the usage events: rebuilt from the log after a restart, the same', async () => {
    const before = {
      self: dataOf(await alice.get('/api/data/self')),
      bob: dataOf(await bob.get('/api/data/self')),
      all: dataOf(await root.get('/api/data/')),
    };
    const dataDir = t!.dataDir;
    await t!.close();
    t = undefined;
    const readStore = await createReadStore({ dataDir });
    const eventStore = await createEventStore({ dataDir });
    const dump = async () => ({
      rows: await readStore.collection(QUOTA_DATA).find({}, { sort: { _id: 1 } }),
      totals: await readStore.collection(QUOTA_DATA_TOTAL).find({}, { sort: { _id: 1 } }),
    });
    try {
      await readStore.declare(quotaDataProjection.collections);
      const stored = await dump();
      expect(stored.rows).toHaveLength(before.self.length + before.bob.length);
      expect(stored.totals).toHaveLength(before.all.length);
      await readStore.drop(quotaDataProjection.collections.map((c) => c.name));
      expect((await dump()).rows).toEqual([]);
      await rebuildProjections(eventStore, readStore, [quotaDataProjection]);
      expect(await dump()).toEqual(stored);
    } finally {
      await eventStore.close();
      await readStore.close();
    }
    t = await startTestApp({ dataDir });
    const again = await new ConsoleClient(t.url).login('dash_alice', 'password123');
    const rootAgain = await loginRoot(t.url);
    expect(dataOf(await again.get('/api/data/self'))).toEqual(before.self);
    expect(dataOf(await rootAgain.get('/api/data/'))).toEqual(before.all);
  });
});
