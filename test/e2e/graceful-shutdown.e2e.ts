/**
 * SIGTERM while 10 streams are mid-flight (sent twice, as systemd and `npm start` both forward it):
 * every stream finishes with its whole content, the process exits 0, and after a restart on the
 * same data the log shows 10 consumption rows and the balance is the credit minus their sum.
 * Runs the built gateway (`npm run build`) as a child process so it can really be signalled.
 */
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { startGateway, type RunningGateway } from '../support/start-gateway';

jest.setTimeout(120_000);

const QUOTA = 10_000_000;
const STREAMS = 10;
const CHUNKS = 20;

/**
 * Adds a mock channel (as `admin`) pointing at `upstreamUrl`, creates an unlimited token for
 * `owner` and reads its key back: the token create's answer and the key.
 */
async function mockChannelAndKey(
  url: string,
  upstreamUrl: string,
  admin: GatewaySession,
  owner: GatewaySession = admin,
) {
  await gatewayApi(url, '/api/channel/', {
    method: 'POST',
    body: {
      type: 1,
      name: 'mock',
      key: 'sk-up',
      base_url: upstreamUrl,
      models: 'gpt-4o-mini',
      group: 'default',
    },
    ...admin,
  });
  const created = await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body: { name: 'k', unlimited_quota: true },
    ...owner,
  });
  const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...owner });
  return { created: created.data, key: (tokens.data as Array<{ key: string }>)[0]!.key };
}

describe('graceful shutdown', () => {
  let upstream: MockUpstream;
  let gateway: RunningGateway | undefined;

  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('drains 10 open streams on SIGTERM, exits 0, and bills each once', async () => {
    upstream = await MockUpstream.start({
      defaults: { chunks: CHUNKS, chunkIntervalMs: 100, usage: { prompt_tokens: 10 } },
    });
    gateway = await startGateway();
    const url = gateway.url;
    const root = await gatewayLogin(url, 'root', '123456');
    await gatewayApi(url, '/api/option/', {
      method: 'PUT',
      body: { key: 'QuotaForNewUser', value: String(QUOTA) },
      ...root,
    });
    await gatewayApi(url, '/api/user/register', {
      method: 'POST',
      body: { username: 'drain', password: 'drain-password', password2: 'drain-password' },
    });
    const user = await gatewayLogin(url, 'drain', 'drain-password');
    const { key } = await mockChannelAndKey(url, upstream.url, root, user);

    let started = 0;
    const stream = async () => {
      const res = await request(`${url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        }),
      });
      let text = '';
      let counted = false;
      for await (const chunk of res.body) {
        text += (chunk as Buffer).toString();
        if (!counted && text.includes('"content"')) {
          counted = true;
          started += 1;
        }
      }
      return { status: res.statusCode, text };
    };
    const streams = Array.from({ length: STREAMS }, () => stream());
    await waitUntil(() => started === STREAMS, 'every stream under way', 10_000);
    process.kill(gateway.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    process.kill(gateway.pid, 'SIGTERM'); // a second signal does not cut the drain short

    const answers = await Promise.all(streams);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      const contentChunks = answer.text.split('\n').filter((l) => l.includes('"content":"tok'));
      expect(contentChunks).toHaveLength(CHUNKS);
      expect(answer.text).toContain('data: [DONE]');
    }
    expect(await gateway.exited).toBe(0);

    const dataDir = gateway.dataDir;
    gateway = await startGateway({ dataDir });
    const again = await gatewayLogin(gateway.url, 'drain', 'drain-password');
    const logs = await gatewayApi(gateway.url, '/api/log/self/?type=2&p=1&page_size=50', {
      method: 'GET',
      ...again,
    });
    const rows = logs.data.items as Array<{ quota: number }>;
    expect(rows).toHaveLength(STREAMS);
    const spent = rows.reduce((sum, row) => sum + row.quota, 0);
    expect(spent).toBeGreaterThan(0);
    const self = await gatewayApi(gateway.url, '/api/user/self', { method: 'GET', ...again });
    expect(self.data.quota).toBe(QUOTA - spent);
  });

  it('cuts what is still open when SHUTDOWN_GRACE_MS is over, and still exits 0', async () => {
    upstream.setDefaults({ chunks: 100, chunkIntervalMs: 100 });
    const slow = await startGateway({ env: { SHUTDOWN_GRACE_MS: '500' } });
    try {
      const root = await gatewayLogin(slow.url, 'root', '123456');
      const { created, key } = await mockChannelAndKey(slow.url, upstream.url, root);
      expect(created).toBeDefined();
      const res = await request(`${slow.url}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          model: 'gpt-4o-mini',
          stream: true,
          messages: [{ role: 'user', content: 'x' }],
        }),
      });
      const signalled = Date.now();
      process.kill(slow.pid, 'SIGTERM');
      let text = '';
      try {
        for await (const chunk of res.body) text += (chunk as Buffer).toString();
      } catch {
        // cut at the deadline
      }
      expect(await slow.exited).toBe(0);
      // The 10 s stream was cut shortly after the 0.5 s grace, not run to its end.
      expect(Date.now() - signalled).toBeLessThan(8000);
      expect(text).not.toContain('[DONE]');
    } finally {
      await slow.stop();
    }
  });
});
