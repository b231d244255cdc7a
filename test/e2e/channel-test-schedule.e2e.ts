import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import {
  loginRoot,
  registerAndLogin,
  startTestApp,
  type ConsoleClient,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(60_000);

/** 0.005 min = 300 ms between the end of one scheduled run and the start of the next. */
const PERIOD_MS = 300;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('CHANNEL_TEST_FREQUENCY: the scheduled channel test (against the mock upstream)', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream?.close());
  beforeEach(() => upstream.reset());

  async function createChannel(
    root: ConsoleClient,
    name: string,
    key: string,
    extra: Record<string, unknown> = {},
  ): Promise<number> {
    const res = await root.post('/api/channel/', {
      type: 1,
      name,
      key,
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      ...extra,
    });
    expect(res.body.success).toBe(true);
    return (res.body.data as { ids: number[] }).ids[0]!;
  }

  it('off by default: no provider is called', async () => {
    const t = await startTestApp();
    try {
      const root = await loginRoot(t.url);
      await createChannel(root, 'idle', 'sk-idle');
      await sleep(4 * PERIOD_MS);
      expect(upstream.requests).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('an invalid value stops the start', async () => {
    await expect(startTestApp({ env: { CHANNEL_TEST_FREQUENCY: 'soon' } })).rejects.toThrow(
      'CHANNEL_TEST_FREQUENCY must be a non-negative number of minutes, got "soon"',
    );
    // Beyond setTimeout's range Node would fire at once: runs back to back instead of monthly.
    await expect(startTestApp({ env: { CHANNEL_TEST_FREQUENCY: '43200' } })).rejects.toThrow(
      'CHANNEL_TEST_FREQUENCY must be at most 35791 minutes, got "43200"',
    );
  });

  describe('on', () => {
    let t: TestApp;
    let root: ConsoleClient;
    let table: RoutingTable;
    let closed = false;
    const option = (key: string, value: string) => root.put('/api/option/', { key, value });

    beforeAll(async () => {
      t = await startTestApp({ env: { CHANNEL_TEST_FREQUENCY: String(PERIOD_MS / 60_000) } });
      root = await loginRoot(t.url);
      table = t.app.get(RoutingTable);
      await option('AutomaticDisableChannelEnabled', 'true');
      await option('AutomaticEnableChannelEnabled', 'true');
    });
    afterAll(async () => {
      if (!closed) await t?.close();
    });

    const events = (id: number, type: string) =>
      readStoredEvents(t.dataDir, { streamId: `channel-${id}`, type });

    it('tests enabled and automatically disabled channels as the system, disables and re-enables by the options', async () => {
      upstream.forKey('sk-dead', { fail: 'invalid_key' });
      const good = await createChannel(root, 'good', 'sk-good');
      const dead = await createChannel(root, 'dead', 'sk-dead');
      const manual = await createChannel(root, 'manual', 'sk-manual', { status: 2 });

      await waitUntil(() => table.channel(dead)?.status === 3, 'dead channel auto-disabled');
      await waitUntil(() => events(good, 'ChannelTested').length > 0, 'good channel tested');
      const [disabled] = events(dead, 'ChannelStatusChanged');
      expect(disabled!.data).toMatchObject({ from: 1, to: 3 });
      expect(String(disabled!.data['reason'])).toContain('invalid_api_key');
      expect(disabled!.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });
      const [tested] = events(good, 'ChannelTested');
      expect(tested!.data).toMatchObject({ success: true, model: 'gpt-4o-mini' });
      expect(tested!.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });
      const channel = (await root.get(`/api/channel/${good}`)).body.data as { test_time: number };
      expect(channel.test_time).toBeGreaterThan(0);

      // An automatically disabled channel keeps being tested; once its key works it comes back.
      const failedTests = events(dead, 'ChannelTested').length;
      upstream.reset();
      await waitUntil(() => table.channel(dead)?.status === 1, 'dead channel auto-enabled');
      expect(events(dead, 'ChannelTested').length).toBeGreaterThan(failedTests);
      expect(
        events(dead, 'ChannelStatusChanged').map((e) => [e.data['to'], e.metadata['actor']]),
      ).toEqual([
        [3, { kind: 'system', id: null, role: null }],
        [1, { kind: 'system', id: null, role: null }],
      ]);
      expect(table.candidates('default', 'gpt-4o-mini').map((c) => c.id)).toContain(dead);

      // A channel disabled by hand is never tested nor brought back.
      expect(events(manual, 'ChannelTested')).toEqual([]);
      expect(upstream.requests.filter((r) => r.key === 'sk-manual')).toEqual([]);
      expect(table.channel(manual)?.status).toBe(2);

      await root.post('/api/channel/batch', { ids: [good, dead, manual] });
    });

    it('brings back a channel the relay disabled once its test model answers again; stays off while it fails', async () => {
      // Relay calls (gpt-4o) get the 401 the relay disables on; the scheduled test (gpt-4o-mini)
      // gets a 500, which never disables: so the disable below can only be the relay's.
      upstream.forModel('gpt-4o', { fail: 'invalid_key' });
      upstream.forModel('gpt-4o-mini', { fail: 'server_error' });
      await option('QuotaForNewUser', '1000000');
      const user = await registerAndLogin(t.url, 'scheduled');
      const created = await user.post('/api/token/', { name: 'relay', remain_quota: 500_000 });
      expect(created.body.success).toBe(true);
      const tokens = (await user.get('/api/token/?p=0&size=10')).body.data as Array<{
        key: string;
      }>;
      const flaky = await createChannel(root, 'flaky', 'sk-flaky', {
        models: 'gpt-4o-mini,gpt-4o',
        test_model: 'gpt-4o-mini',
      });
      await waitUntil(() => table.channel(flaky) !== undefined, 'routing table has the channel');

      const relayed = await fetch(`${t.url}/v1/chat/completions`, {
        method: 'POST',
        headers: {
          authorization: `Bearer sk-${tokens[0]!.key}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
      });
      expect(relayed.ok).toBe(false);
      await waitUntil(() => table.channel(flaky)?.status === 3, 'relay disabled the channel');
      const [disabled] = events(flaky, 'ChannelStatusChanged');
      expect(disabled!.data).toMatchObject({ from: 1, to: 3 });
      expect(String(disabled!.data['reason'])).toMatch(/^status 401.*invalid_api_key/);
      expect(disabled!.metadata['actor']).toEqual({ kind: 'system', id: null, role: null });

      // Still failing: tested by the schedule, recorded as failed, left disabled.
      const testsBefore = events(flaky, 'ChannelTested').length;
      await waitUntil(
        () => events(flaky, 'ChannelTested').length >= testsBefore + 2,
        'two scheduled tests of the disabled channel',
      );
      const failing = events(flaky, 'ChannelTested').slice(testsBefore);
      expect(failing.every((e) => e.data['success'] === false)).toBe(true);
      expect(
        failing.every((e) => (e.metadata['actor'] as { kind: string }).kind === 'system'),
      ).toBe(true);
      expect(table.channel(flaky)?.status).toBe(3);
      expect(events(flaky, 'ChannelStatusChanged')).toHaveLength(1);

      // The provider answers again: the next scheduled test re-enables it, as the system.
      upstream.reset();
      await waitUntil(() => table.channel(flaky)?.status === 1, 'scheduled test re-enabled it');
      expect(
        events(flaky, 'ChannelStatusChanged').map((e) => [e.data['to'], e.metadata['actor']]),
      ).toEqual([
        [3, { kind: 'system', id: null, role: null }],
        [1, { kind: 'system', id: null, role: null }],
      ]);
      const last = events(flaky, 'ChannelTested').at(-1)!;
      expect(last.data).toMatchObject({ success: true, model: 'gpt-4o-mini' });
      expect(table.candidates('default', 'gpt-4o').map((c) => c.id)).toContain(flaky);

      await root.post('/api/channel/batch', { ids: [flaky] });
    });

    it('never overlaps itself: the next period starts when a slow run has ended', async () => {
      const slowMs = 700;
      upstream.forKey('sk-slow', { latencyMs: slowMs });
      const slow = await createChannel(root, 'slow', 'sk-slow');
      const arrivals = () => upstream.requests.filter((r) => r.key === 'sk-slow').map((r) => r.at);
      await waitUntil(() => arrivals().length >= 3, 'three scheduled tests', 15_000);
      const times = arrivals();
      // Overlapping runs would call every PERIOD_MS; one at a time waits for the slow answer too.
      for (let i = 1; i < times.length; i += 1)
        expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(slowMs + PERIOD_MS - 50);
      await root.post('/api/channel/batch', { ids: [slow] });
    });

    it('stops with the app, even in the middle of a run', async () => {
      upstream.forKey('sk-last', { latencyMs: 2000 });
      const last = await createChannel(root, 'last', 'sk-last');
      await waitUntil(
        () => upstream.requests.some((r) => r.key === 'sk-last'),
        'a scheduled test in flight',
      );
      const started = Date.now();
      closed = true;
      await t.close();
      expect(Date.now() - started).toBeLessThan(1500);
      const seen = upstream.requests.length;
      await sleep(4 * PERIOD_MS);
      expect(upstream.requests.length).toBe(seen);
      // The call cut short by the shutdown is no test result: nothing recorded for it.
      expect(events(last, 'ChannelTested')).toEqual([]);
    });
  });
});
