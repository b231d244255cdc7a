/**
 * Adaptive routing (RoutingStrategy = latency) through the whole app: three channels of one model
 * on the mock upstream — one answering in 5 ms, one in 200 ms, one failing half its calls. The
 * fast one wins most of the traffic; when it starts failing the traffic leaves it at once, and
 * when it recovers it comes back. A restart keeps what was learnt: the figures are rebuilt from
 * the recent receipts.
 */
import { rmSync } from 'node:fs';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { ChannelStatsSeeder } from '../../apps/gateway/src/relay/channel-stats-seeder';
import { RelayService } from '../../apps/gateway/src/relay/relay.service';
import { addRelayChannel, createRelayToken } from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  tempDataDir,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const MODEL = 'route-model';
const KEYS = { fast: 'sk-route-fast', slow: 'sk-route-slow', flaky: 'sk-route-flaky' } as const;
type Name = keyof typeof KEYS;

describe('adaptive routing: latency', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let key: string;
  const dataDir = tempDataDir();
  const channelIds = {} as Record<Name, number>;

  const option = async (k: string, value: string) => {
    const res = await root.put('/api/option/', { key: k, value });
    expect({ k, ...res.body }).toMatchObject({ k, success: true });
  };

  /** Sends `n` chat calls, four at a time; which channel (by upstream key) served each. */
  async function traffic(n: number): Promise<Record<Name, number>> {
    const from = upstream.requests.length;
    let next = 0;
    const worker = async () => {
      while (next < n) {
        next += 1;
        await fetch(`${t.url}/v1/chat/completions`, {
          method: 'POST',
          headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }),
        }).then((res) => res.arrayBuffer());
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const counts = { fast: 0, slow: 0, flaky: 0 };
    for (const r of upstream.requests.slice(from)) {
      const name = (Object.keys(KEYS) as Name[]).find((k) => KEYS[k] === r.key);
      if (name) counts[name] += 1;
    }
    return counts;
  }

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp({ dataDir });
    const routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify({ [MODEL]: 1 }));
    await option('QuotaForNewUser', '100000000');
    await option('RoutingStrategy', 'latency');
    for (const name of Object.keys(KEYS) as Name[])
      channelIds[name] = await addRelayChannel(root, routing, {
        type: 1,
        name: `route-${name}`,
        key: KEYS[name],
        base_url: upstream.url,
        models: MODEL,
        group: 'default',
      });
    upstream.forKey(KEYS.fast, { latencyMs: 5 });
    upstream.forKey(KEYS.slow, { latencyMs: 200 });
    upstream.forKey(KEYS.flaky, { latencyMs: 5, fail: 'server_error', failEvery: 2 });
    const web = await registerAndLogin(t.url, 'router');
    ({ key } = await createRelayToken(web, { name: 'k', unlimited_quota: true }));
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a strategy it does not know, and changes nothing', async () => {
    const res = await root.put('/api/option/', { key: 'RoutingStrategy', value: 'fastest' });
    expect(res.body.success).toBe(false);
    const all = (await root.get('/api/option/')).body.data as Array<{ key: string; value: string }>;
    expect(all.find((o) => o.key === 'RoutingStrategy')?.value).toBe('latency');
  });

  it('gives the fast channel most traffic, moves it away on failures and back on recovery', async () => {
    await traffic(150); // warm-up: every channel gets history
    const settled = await traffic(200);
    expect(settled.fast / 200).toBeGreaterThan(0.8); // static weights give it about half
    expect(settled.flaky).toBeLessThanOrEqual(settled.slow + 5);

    upstream.forKey(KEYS.fast, { fail: 'server_error' });
    await traffic(20);
    const failing = await traffic(60);
    expect(failing.fast / 60).toBeLessThan(0.2);

    upstream.forKey(KEYS.fast, { fail: undefined });
    const started = Date.now();
    let recovered = { fast: 0, slow: 0, flaky: 0 };
    while (recovered.fast / 60 <= 0.6 && Date.now() - started < 30_000)
      recovered = await traffic(60);
    expect(recovered.fast / 60).toBeGreaterThan(0.6);

    // Every call above was routed by the strategy, and the metrics say so.
    const metrics = await (await fetch(`${t.url}/metrics`)).text();
    const answered =
      /tollgate_routing_decisions_total\{strategy="latency",outcome="answered"\} (\d+)/.exec(
        metrics,
      );
    expect(Number(answered?.[1])).toBeGreaterThan(300);
  });

  it('after a restart the fast channel keeps most traffic from the first calls', async () => {
    await t.close();
    t = await startTestApp({ dataDir });
    await t.app.get(ChannelStatsSeeder).done;
    // Before any call, the figures are back: the fast channel is known, and known to be fast.
    const stats = t.app.get(RelayService).channelStats;
    const fast = stats.snapshot(channelIds.fast, MODEL, false);
    const slow = stats.snapshot(channelIds.slow, MODEL, false);
    expect(fast?.calls).toBeGreaterThan(5);
    expect(fast!.latencyMs).toBeLessThan(slow!.latencyMs);
    const first = await traffic(40);
    expect(first.fast / 40).toBeGreaterThan(0.6);
  });
});
