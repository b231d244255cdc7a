/**
 * Providers that quote the key they were sent (many OpenAI-compatible servers do), through the
 * whole app: the OpenAI pass-through (an error body, a whole answer and its content type, a
 * stream's content and error event), a converting provider (Anthropic from an OpenAI client), the
 * Anthropic ingress (native, JSON and stream), a composite key (Bedrock's Ak|Sk|Region), the
 * Midjourney relay (a refused submission, a polled failure, the no-account disable), a channel
 * test, a balance query, and an automatic disable with its alert. Then no answer, log row, event,
 * read model, log line or notice holds a key, in clear, URL-encoded or in base64.
 */
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { request } from 'undici';
import { MockTaskUpstream } from '@tollgate/testing';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { ChannelAlerts } from '../../apps/gateway/src/notices/channel-alerts';
import { TaskPoller } from '../../apps/gateway/src/tasks/task-poller';
import { allSqliteText, waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken } from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const OPENAI_KEY = 'sk-leak/openai+7Qm2Zx9Lw4Rt8Yp1Kd6Hs3Nv';
const ANTHROPIC_KEY = 'sk-ant-leak-0Vb5Jn8Cq2Wx4Ez6Ty1Ui3Op';
const AWS_ACCESS_KEY = 'AKIALEAKEXAMPLE00001';
const AWS_SECRET_KEY = 'leakSecretAccessKey/0123456789abcdefGH';
const MJ_KEY = 'mj-leak-secret-5Rt8Yp1Kd6Hs';
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, AWS_ACCESS_KEY, AWS_SECRET_KEY, MJ_KEY];

const CLAUDE = 'claude-3-5-sonnet-20241022';
const HAIKU = 'claude-3-5-haiku-20241022';
const RATIOS = { 'gpt-4o-mini': 0.075, [CLAUDE]: 1.5, [HAIKU]: 0.5 };

const b64 = (text: string) => Buffer.from(text).toString('base64');
/** How a leaked secret would read: in clear, URL-encoded, base64 (standard, URL-safe). */
const spellings = (secret: string) => [
  secret,
  encodeURIComponent(secret),
  b64(secret).replace(/=+$/, ''),
  Buffer.from(secret).toString('base64url'),
];
/** The spellings of any key found in `text` (none expected). */
const leaksIn = (text: string) =>
  SECRETS.flatMap(spellings).filter((spelling) => text.includes(spelling));

/** A webhook receiver for root's channel alerts. */
function startReceiver(): Promise<{ server: Server; url: string; bodies: string[] }> {
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.end('ok');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error('no address');
      resolve({ server, url: `http://127.0.0.1:${address.port}/root`, bodies });
    }),
  );
}

describe('secret scrubbing: a provider quoting its key reaches no one', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let mj: MockTaskUpstream;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let token: string;
  const logged: string[] = [];
  /** Every answer the gateway gave here: status, headers and body. */
  const answers: string[] = [];
  const ids: Record<'openai' | 'anthropic' | 'bedrock' | 'mj', number> = {
    openai: 0,
    anthropic: 0,
    bedrock: 0,
    mj: 0,
  };

  const option = async (key: string, value: string) =>
    expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
      success: true,
    });

  /** A relay call with the user's token; the answer is kept for the final sweep. */
  async function call(path: string, body: unknown, headers: Record<string, string> = {}) {
    const res = await request(`${t.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer sk-${token}`,
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const text = await res.body.text();
    answers.push(`${res.statusCode} ${JSON.stringify(res.headers)} ${text}`);
    return { status: res.statusCode, text, headers: res.headers };
  }
  /** A console call as root; the answer is kept for the final sweep. */
  async function consoleGet(path: string) {
    const res = await root.get(path);
    answers.push(`${res.status} ${JSON.stringify(res.headers)} ${res.text}`);
    return res;
  }
  const chat = (model: string, extra: Record<string, unknown> = {}) =>
    call('/v1/chat/completions', {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      ...extra,
    });

  beforeAll(async () => {
    [upstream, mj, receiver] = await Promise.all([
      MockUpstream.start(),
      MockTaskUpstream.start(),
      startReceiver(),
    ]);
    t = await startTestApp({
      logLine: (line) => logged.push(line),
      env: { LOG_LEVEL: 'debug', TASK_POLL_INTERVAL_MS: '0' },
    });
    t.app.get(ChannelAlerts).policy = { coalesceMs: 100, perChannelMs: 10 * 60_000 };
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    await option('ModelRatio', JSON.stringify(RATIOS));
    await option('QuotaForNewUser', '5000000');
    await option('WebhookAllowPrivateAddresses', 'true');
    const channel = (body: Record<string, unknown>) =>
      addRelayChannel(root, routing, { base_url: upstream.url, group: 'default', ...body });
    ids.openai = await channel({ type: 1, name: 'openai', key: OPENAI_KEY, models: 'gpt-4o-mini' });
    ids.anthropic = await channel({ type: 14, name: 'claude', key: ANTHROPIC_KEY, models: CLAUDE });
    ids.bedrock = await channel({
      type: 33,
      name: 'aws',
      key: `${AWS_ACCESS_KEY}|${AWS_SECRET_KEY}|us-east-1`,
      models: HAIKU,
    });
    ids.mj = await channel({
      type: 5,
      name: 'mj',
      key: MJ_KEY,
      base_url: mj.url,
      models: 'mj_imagine',
    });
    const web = await registerAndLogin(t.url, 'scrubbed1');
    ({ key: token } = await createRelayToken(web, { name: 'k', unlimited_quota: true }));
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([upstream?.close(), mj?.close()]);
    await new Promise((resolve) => receiver?.server.close(resolve));
  });

  it('OpenAI pass-through: an error body, a whole answer and its content type, a stream', async () => {
    upstream.next({
      status: 400,
      errorBody: {
        error: {
          message: `Incorrect API key provided: Bearer ${OPENAI_KEY}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    const failed = await chat('gpt-4o-mini');
    expect(failed.status).toBe(400);
    expect(JSON.parse(failed.text).error.message).toMatch(
      /^Incorrect API key provided: Bearer \*\*\*/,
    );

    upstream.next({
      chunks: 1,
      content: `you sent ${OPENAI_KEY}, that is Basic ${b64(`user:${OPENAI_KEY}`)}`,
      headers: { 'content-type': `application/json; key=${OPENAI_KEY}` },
    });
    const whole = await chat('gpt-4o-mini');
    expect(whole.status).toBe(200);
    expect(JSON.parse(whole.text).choices[0].message.content).toMatch(/^you sent \*\*\*, /);
    expect(whole.headers['content-type']).toBe('application/json; key=***');

    upstream.next({
      chunks: 1,
      content: `echo ${OPENAI_KEY}`,
      streamError: {
        error: { message: `key ${encodeURIComponent(OPENAI_KEY)} revoked`, type: 'server_error' },
      },
    });
    const stream = await chat('gpt-4o-mini', { stream: true });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('"content":"echo ***"');
    expect(stream.text).toContain('"message":"key *** revoked"');
    // The gateway did send the key: what came back quoted it.
    expect(upstream.requestsTo('/chat/completions').map((r) => r.key)).toEqual([
      OPENAI_KEY,
      OPENAI_KEY,
      OPENAI_KEY,
    ]);
  });

  it('a converting provider: an Anthropic channel from an OpenAI client, error and stream', async () => {
    upstream.next({
      status: 401,
      errorBody: {
        type: 'error',
        error: { type: 'authentication_error', message: `invalid x-api-key: ${ANTHROPIC_KEY}` },
      },
    });
    const failed = await chat(CLAUDE);
    expect(failed.status).toBe(401);
    expect(JSON.parse(failed.text).error.message).toMatch(/^invalid x-api-key: \*\*\*/);

    upstream.next({ chunks: 1, content: `the key is ${ANTHROPIC_KEY}` });
    const stream = await chat(CLAUDE, { stream: true });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('the key is ***');
  });

  it('the Anthropic ingress, natively: error and stream', async () => {
    const messages = (extra: Record<string, unknown> = {}) =>
      call(
        '/v1/messages',
        { model: CLAUDE, max_tokens: 20, messages: [{ role: 'user', content: 'hi' }], ...extra },
        { 'anthropic-version': '2023-06-01', 'x-api-key': `sk-${token}` },
      );
    upstream.next({
      status: 400,
      errorBody: {
        type: 'error',
        error: { type: 'invalid_request_error', message: `bad key ${ANTHROPIC_KEY}` },
      },
    });
    const failed = await messages();
    expect(failed.status).toBe(400);
    expect(JSON.parse(failed.text)).toMatchObject({
      type: 'error',
      error: { message: expect.stringMatching(/^bad key \*\*\*/) },
    });

    upstream.next({ chunks: 1, content: `native ${ANTHROPIC_KEY}` });
    const stream = await messages({ stream: true });
    expect(stream.status).toBe(200);
    expect(stream.text).toContain('native ***');
  });

  it("a composite key: Bedrock's access key and secret masked, its region kept", async () => {
    upstream.next({
      status: 403,
      errorBody: {
        message: `The security token ${AWS_ACCESS_KEY} (secret ${AWS_SECRET_KEY}) is not valid in us-east-1`,
      },
    });
    const failed = await chat(HAIKU);
    expect(failed.status).toBe(403);
    expect(JSON.parse(failed.text).error.message).toMatch(
      /^The security token \*\*\* \(secret \*\*\*\) is not valid in us-east-1/,
    );
  });

  it('Midjourney: a refused submission and a polled failure quoting the key', async () => {
    mj.nextSubmit({ code: 24, description: `banned for mj-api-secret ${MJ_KEY}` });
    const refused = await call('/mj/submit/imagine', { prompt: 'a cat' });
    expect(JSON.parse(refused.text)).toMatchObject({
      code: 24,
      description: 'banned for mj-api-secret ***',
    });

    const accepted = await call('/mj/submit/imagine', { prompt: 'a dog' });
    const taskId = JSON.parse(accepted.text).result as string;
    mj.advance(taskId, 'FAILURE', `proxy refused ${MJ_KEY}`);
    await t.app.get(TaskPoller).pollNow();
    const fetched = await request(`${t.url}/mj/task/${taskId}/fetch`, {
      headers: { authorization: `Bearer sk-${token}` },
    });
    const text = await fetched.body.text();
    answers.push(text);
    expect(JSON.parse(text)).toMatchObject({ status: 'FAILURE', failReason: 'proxy refused ***' });
  });

  it('a channel test and a balance query', async () => {
    const leak = { error: { message: `Incorrect API key provided: ${OPENAI_KEY}` } };
    upstream.next({ status: 401, errorBody: leak });
    const tested = await consoleGet(`/api/channel/test/${ids.openai}`);
    expect(tested.body).toMatchObject({
      success: false,
      message: 'Incorrect API key provided: ***',
    });
    upstream.next({ status: 401, errorBody: leak });
    const balance = await consoleGet(`/api/channel/update_balance/${ids.openai}/`);
    expect(balance.body).toMatchObject({ success: false });
    expect(String(balance.body.message)).toContain('Incorrect API key provided: ***');
  });

  it('AutomaticDisableChannelEnabled: the disable reasons and the alert are masked', async () => {
    expect(
      (
        await root.put('/api/user/setting', {
          notify_type: 'webhook',
          webhook_url: receiver.url,
          webhook_secret: 'whsec-scrub-test',
          accept_admin_alerts: true,
        })
      ).body,
    ).toMatchObject({ success: true });
    await option('AutomaticDisableChannelEnabled', 'true');
    upstream.next({
      status: 401,
      errorBody: {
        error: {
          message: `Incorrect API key provided: Bearer ${OPENAI_KEY}`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      },
    });
    await chat('gpt-4o-mini');
    mj.nextSubmit({ code: 3, description: `no available account for ${MJ_KEY}` });
    await call('/mj/submit/imagine', { prompt: 'a bird' });
    await waitUntil(
      () => routing.channel(ids.openai)?.status === 3 && routing.channel(ids.mj)?.status === 3,
      'both channels disabled automatically',
    );
    const list = await consoleGet('/api/channel/?p=0&page_size=50');
    const reasons = (list.body.data as Array<{ id: number; other_info: string }>)
      .filter((c) => c.id === ids.openai || c.id === ids.mj)
      .map((c) => JSON.parse(c.other_info).status_reason as string);
    expect(reasons).toHaveLength(2);
    expect(reasons).toEqual(
      expect.arrayContaining([
        expect.stringContaining('Incorrect API key provided: Bearer ***'),
        expect.stringContaining('no available account for ***'),
      ]),
    );
    const history = await consoleGet(`/api/channel/${ids.openai}/history?p=1&page_size=50`);
    expect(JSON.stringify(history.body)).toContain('Bearer ***');
    await waitUntil(() => receiver.bodies.length > 0, 'the channel alert', 10_000);
    expect(receiver.bodies.join('\n')).toContain('***');
  });

  it('leaves no key in any answer, log row, event, read model, log line or notice', async () => {
    const logs = await consoleGet('/api/log/?p=0&page_size=100');
    expect(logs.body).toMatchObject({ success: true });
    const sinks: Record<string, string> = {
      answers: answers.join('\n'),
      'log rows': logs.text,
      events: allSqliteText(join(t.dataDir, 'events.sqlite')),
      'read models': allSqliteText(join(t.dataDir, 'read.sqlite')),
      'log lines': logged.join('\n'),
      notices: receiver.bodies.join('\n'),
    };
    // The sweep sees what it should: answers, rows and log lines of all of the above.
    expect(sinks['answers']).toContain('***');
    expect(sinks['log rows']).toContain('gpt-4o-mini');
    expect(sinks['events']).toContain('ChannelStatusChanged');
    expect(logged.length).toBeGreaterThan(10);
    for (const [where, text] of Object.entries(sinks))
      expect({ where, leaks: leaksIn(text) }).toEqual({ where, leaks: [] });
  });
});
