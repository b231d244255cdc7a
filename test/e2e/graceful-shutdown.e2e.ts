/**
 * SIGTERM while 10 streams are mid-flight (sent twice, as systemd and `npm start` both forward it):
 * every stream finishes with its whole content, the process exits 0, and after a restart on the
 * same data the log shows 10 consumption rows and the balance is the credit minus their sum. A
 * stream still open at the grace deadline is cut and billed for what it delivered; with
 * SHUTDOWN_DELAY_MS the listener keeps serving (readiness 503) before the drain.
 * Runs the built gateway (`npm run build`) as a child process so it can really be signalled.
 */
import { request } from 'undici';
import { countText } from '@tollgate/relay';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { waitUntil } from '../support/e2e-helpers';
import {
  gatewayApi,
  gatewayLogin,
  refusesConnections,
  type GatewaySession,
} from '../support/gateway-http';
import { startGateway, type RunningGateway } from '../support/start-gateway';
import { STALLED_CHUNK, startStalledUpstream } from '../support/stalled-upstream';

jest.setTimeout(120_000);

const QUOTA = 10_000_000;
const STREAMS = 10;
const CHUNKS = 20;

/**
 * Adds a mock channel (as `admin`) pointing at `upstreamUrl`, creates an unlimited token for
 * `owner` and reads its key back.
 */
async function mockChannelAndKey(
  url: string,
  upstreamUrl: string,
  admin: GatewaySession,
  owner: GatewaySession,
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
  await gatewayApi(url, '/api/token/', {
    method: 'POST',
    body: { name: 'k', unlimited_quota: true },
    ...owner,
  });
  const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...owner });
  return { key: (tokens.data as Array<{ key: string }>)[0]!.key };
}

/** Gives new users QUOTA (as root), registers `name` and signs them in. */
async function userWithCredit(url: string, root: GatewaySession, name: string) {
  await gatewayApi(url, '/api/option/', {
    method: 'PUT',
    body: { key: 'QuotaForNewUser', value: String(QUOTA) },
    ...root,
  });
  const password = `${name}-password`;
  await gatewayApi(url, '/api/user/register', {
    method: 'POST',
    body: { username: name, password, password2: password },
  });
  return gatewayLogin(url, name, password);
}

/** Opens a chat stream with this key: the answer's status and its body, read as it comes. */
async function openStream(url: string, key: string) {
  return request(`${url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer sk-${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'x' }],
    }),
  });
}

/** The consumption rows (type 2) of the signed-in user, newest first. */
async function consumptionRows(url: string, session: GatewaySession) {
  const logs = await gatewayApi(url, '/api/log/self/?type=2&p=1&page_size=50', {
    method: 'GET',
    ...session,
  });
  return logs.data.items as Array<{ quota: number; completion_tokens: number }>;
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
    const user = await userWithCredit(url, root, 'drain');
    const { key } = await mockChannelAndKey(url, upstream.url, root, user);

    let started = 0;
    const stream = async () => {
      const res = await openStream(url, key);
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
    const rows = await consumptionRows(gateway.url, again);
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
      const user = await userWithCredit(slow.url, root, 'slow');
      const { key } = await mockChannelAndKey(slow.url, upstream.url, root, user);
      const res = await openStream(slow.url, key);
      expect(res.statusCode).toBe(200);
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
      expect(text).toContain('"content":"tok');
      expect(text).not.toContain('[DONE]');
    } finally {
      await slow.stop();
    }
  });

  it('bills a stream cut at the grace deadline for what it delivered, before the stores close', async () => {
    const SENT = 5;
    const stalled = await startStalledUpstream(SENT);
    const cut = await startGateway({ env: { SHUTDOWN_GRACE_MS: '1500' } });
    let again: RunningGateway | undefined;
    try {
      const root = await gatewayLogin(cut.url, 'root', '123456');
      const user = await userWithCredit(cut.url, root, 'cut');
      const { key } = await mockChannelAndKey(cut.url, stalled.url, root, user);
      const res = await openStream(cut.url, key);
      expect(res.statusCode).toBe(200);
      let text = '';
      const read = (async () => {
        try {
          for await (const chunk of res.body) text += (chunk as Buffer).toString();
        } catch {
          // cut at the deadline
        }
      })();
      const delivered = () => text.split(`"content":"${STALLED_CHUNK}"`).length - 1;
      await waitUntil(() => delivered() === SENT, 'the chunks the upstream sent', 10_000);

      process.kill(cut.pid, 'SIGTERM');
      await read;
      expect(await cut.exited).toBe(0);
      expect(delivered()).toBe(SENT);
      expect(text).not.toContain('[DONE]');
      expect(stalled.open).toBe(0); // the stalled upstream call was cut too

      again = await startGateway({ dataDir: cut.dataDir });
      const session = await gatewayLogin(again.url, 'cut', 'cut-password');
      const rows = await consumptionRows(again.url, session);
      expect(rows).toHaveLength(1);
      // No usage from the upstream: the delivered text, counted locally.
      expect(rows[0]!.completion_tokens).toBe(countText(STALLED_CHUNK.repeat(SENT)));
      expect(rows[0]!.completion_tokens).toBeGreaterThan(0);
      expect(rows[0]!.quota).toBeGreaterThan(0);
      const self = await gatewayApi(again.url, '/api/user/self', { method: 'GET', ...session });
      expect(self.data.quota).toBe(QUOTA - rows[0]!.quota);
    } finally {
      await cut.stop();
      await again?.stop();
      await stalled.close();
    }
  });

  it('serves through SHUTDOWN_DELAY_MS with /readyz 503, then closes the port and drains', async () => {
    const DELAY = 2500;
    const CHUNKS_SLOW = 60; // 6 s: still streaming when the delay ends
    const slowUpstream = await MockUpstream.start({
      defaults: { chunks: CHUNKS_SLOW, chunkIntervalMs: 100 },
    });
    const delayed = await startGateway({ env: { SHUTDOWN_DELAY_MS: String(DELAY) } });
    try {
      const url = delayed.url;
      const root = await gatewayLogin(url, 'root', '123456');
      const user = await userWithCredit(url, root, 'delay');
      const { key } = await mockChannelAndKey(url, slowUpstream.url, root, user);
      const res = await openStream(url, key);
      expect(res.statusCode).toBe(200);
      let text = '';
      let ended = false;
      const read = (async () => {
        for await (const chunk of res.body) text += (chunk as Buffer).toString();
        ended = true;
      })();

      const signalled = Date.now();
      process.kill(delayed.pid, 'SIGTERM');
      const readyz = () => request(`${url}/readyz`).then((r) => r.body.dump().then(() => r));
      await waitUntil(async () => (await readyz()).statusCode === 503, '/readyz 503');
      const status = await request(`${url}/api/status`);
      expect(status.statusCode).toBe(200);
      await status.body.dump();
      const models = await request(`${url}/v1/models`, {
        headers: { authorization: `Bearer sk-${key}` },
      });
      expect(models.statusCode).toBe(200);
      await models.body.dump();
      process.kill(delayed.pid, 'SIGTERM'); // a second signal does not cut the delay short
      const later = await request(`${url}/api/status`);
      expect(later.statusCode).toBe(200);
      await later.body.dump();

      await waitUntil(() => refusesConnections(url), 'the listener closed', 15_000);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(DELAY);
      expect(ended).toBe(false); // the port closed while the stream still drains
      await read;
      const contentChunks = text.split('\n').filter((l) => l.includes('"content":"tok'));
      expect(contentChunks).toHaveLength(CHUNKS_SLOW);
      expect(text).toContain('data: [DONE]');
      expect(await delayed.exited).toBe(0);
    } finally {
      await delayed.stop();
      await slowUpstream.close();
    }
  });
});
