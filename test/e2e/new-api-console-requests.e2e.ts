import { LogType } from '@tollgate/contracts';
import { SYSTEM_ACTOR, taskStreamId, type TaskSubmitted } from '@tollgate/domain';
import type { EventStore } from '@tollgate/event-store';
import { appendEvents } from '@tollgate/testing/append-events';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import request from 'supertest';
import { EVENT_STORE } from '../../apps/gateway/src/infrastructure/injection-tokens';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { countStoredEvents, expectSuccess, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken, relaySdk } from '../support/relay-helpers';
import { ConsoleClient, loginRoot, startTestApp, type TestApp } from '../support/test-app';

/**
 * The requests new-api's own console (its April-2025 build) sends, replayed byte for byte: bodies
 * with `null` in optional fields, query strings with empty and NaN filters, forms that save keys
 * whose values did not change, body-less calls with a JSON content type. Each loads what the page
 * shows, as new-api answers it.
 */
describe("new-api's console requests, as it sends them", () => {
  let t: TestApp;
  let root: ConsoleClient;
  let upstream: MockUpstream;
  const now = () => Math.floor(Date.now() / 1000);

  const task = (platform: 'midjourney' | 'suno', userId: number, n: number): TaskSubmitted => ({
    type: 'TaskSubmitted',
    data: {
      taskId: `replay-${platform}-${n}`,
      platform,
      upstreamTaskId: `${platform}-up-${n}`,
      userId,
      tokenId: 0,
      channelId: 1,
      action: platform === 'suno' ? 'MUSIC' : 'IMAGINE',
      model: platform === 'suno' ? 'suno_music' : 'mj_imagine',
      code: platform === 'suno' ? 0 : 1,
      prompt: `prompt ${n}`,
      description: '提交成功',
      submitTime: Date.now(),
      status: 'SUBMITTED',
      progress: '0%',
      failReason: '',
      quota: 1000,
      originTaskId: '',
      imageUrl: '',
    },
  });

  /** A list answer's rows: new-api pages answer `{items, total}`, the task logs a bare array. */
  const rowsOf = (data: unknown): unknown[] =>
    Array.isArray(data) ? data : ((data as { items: unknown[] }).items ?? []);
  async function loads(client: ConsoleClient, path: string): Promise<unknown[]> {
    const res = await client.get(path);
    expect({
      path,
      status: res.status,
      success: res.body.success,
      message: res.body.message,
    }).toEqual({ path, status: 200, success: true, message: '' });
    return rowsOf(res.body.data);
  }

  beforeAll(async () => {
    t = await startTestApp();
    root = await loginRoot(t.url);
    upstream = await MockUpstream.start();
    const routing = t.app.get(RoutingTable);
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'replay-live',
      key: 'sk-upstream',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    await addRelayChannel(root, routing, {
      type: 1,
      name: 'replay-off',
      key: 'sk-upstream-2',
      base_url: upstream.url,
      models: 'only-on-a-disabled-channel',
      group: 'default',
      status: 2,
    });
    // Root starts with new-api's 100 000 000 units: its first call is served without a top-up.
    const { key } = await createRelayToken(root, { name: 'replay-key', unlimited_quota: true });
    await relaySdk(t.url, key).chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello' }],
    });
    const store = t.app.get<EventStore>(EVENT_STORE);
    for (const [n, platform] of (['midjourney', 'suno'] as const).entries())
      await appendEvents(store, taskStreamId(`replay-${platform}-${n}`), [task(platform, 1, n)], {
        schemaVersion: 1,
        actor: SYSTEM_ACTOR,
        occurredAt: new Date().toISOString(),
      });
    await waitUntil(
      async () =>
        (await loads(root, `/api/log/?p=1&page_size=10&type=${LogType.Consume}`)).length === 1,
      'the usage log row',
    );
  });
  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('root starts with 100 000 000 quota units, recorded as a grant', async () => {
    const self = await root.get('/api/user/self');
    // One call has been billed since: what is left is below the grant and close to it.
    expect(self.body.data.quota + self.body.data.used_quota).toBe(100_000_000);
    const system = await loads(root, `/api/log/?p=1&page_size=10&type=${LogType.System}`);
    expect(system).toEqual([expect.objectContaining({ content: 'root 账户初始额度 100000000' })]);
  });

  it('its /register page registers (aff_code: null and the fields it always sends)', async () => {
    const res = await request(t.url).post('/api/user/register?turnstile=').send({
      username: 'fromconsole',
      password: 'password123',
      password2: 'password123',
      email: '',
      verification_code: '',
      wechat_verification_code: '',
      aff_code: null,
    });
    expectSuccess(res);
    const login = await request(t.url)
      .post('/api/user/login?turnstile=')
      .send({ username: 'fromconsole', password: 'password123' });
    expectSuccess(login);
  });

  it('the admin and user usage logs load their rows with every filter left empty', async () => {
    const window = `start_timestamp=${now() - 3600}&end_timestamp=${now() + 60}`;
    const filters = `type=0&username=&token_name=&model_name=&${window}&channel=&group=`;
    const admin = await loads(root, `/api/log/?p=1&page_size=10&${filters}`);
    expect(admin).toContainEqual(expect.objectContaining({ model_name: 'gpt-4o-mini' }));
    const own = await loads(
      root,
      `/api/log/self/?p=1&page_size=10&type=0&token_name=&model_name=&${window}&group=`,
    );
    expect(own).toContainEqual(expect.objectContaining({ model_name: 'gpt-4o-mini' }));
    const stat = await root.get(`/api/log/stat?${filters}`);
    expect(stat.body).toMatchObject({ success: true, data: { quota: expect.any(Number) } });
    expect(stat.body.data.quota).toBeGreaterThan(0);
  });

  it('the drawing log and the task log load their rows (channel_id= and NaN timestamps)', async () => {
    const drawings = await loads(
      root,
      '/api/mj/?p=0&page_size=10&channel_id=&mj_id=&start_timestamp=&end_timestamp=',
    );
    expect(drawings).toEqual([expect.objectContaining({ mj_id: 'midjourney-up-0' })]);
    const tasks = await loads(
      root,
      '/api/task/?p=0&page_size=10&channel_id=&task_id=&start_timestamp=NaN&end_timestamp=NaN',
    );
    expect(tasks).toEqual([expect.objectContaining({ task_id: 'suno-up-1' })]);
    const own = await loads(root, '/api/task/self?p=0&page_size=10&task_id=&end_timestamp=NaN');
    expect(own).toHaveLength(1);
  });

  it('the operation settings read the models of enabled channels', async () => {
    const res = await root.get('/api/channel/models_enabled');
    expectSuccess(res);
    expect(res.body.data).toEqual(['gpt-4o-mini']);
    const user = await request(t.url).get('/api/channel/models_enabled');
    expect(user.body.success).toBe(false);
  });

  it('its SMTP form saves every key, the unchanged ones too, and records only changes', async () => {
    const form = {
      SMTPServer: 'smtp.example.com',
      SMTPPort: '587',
      SMTPAccount: 'mailer@example.com',
      SMTPFrom: 'mailer@example.com',
      SMTPToken: 'smtp-secret-value',
    };
    const save = async (values: Record<string, string>) => {
      for (const [key, value] of Object.entries(values))
        expectSuccess(await root.put('/api/option/', { key, value }));
    };
    await save(form);
    const before = countStoredEvents(t.dataDir);
    await save({ ...form, SMTPPort: '465' });
    expect(countStoredEvents(t.dataDir) - before).toBe(1);
  });

  it('a body-less call with a JSON content type is answered as one without a body', async () => {
    const res = await root
      .open('delete', '/api/channel/disabled')
      .set('Content-Type', 'application/json');
    expectSuccess(res);
    expect(res.body.data).toBe(1);
    // A route that needs a body says which fields are missing.
    const login = await request(t.url)
      .post('/api/user/login')
      .set('Content-Type', 'application/json');
    expect(login.body).toMatchObject({ success: false });
  });
});
