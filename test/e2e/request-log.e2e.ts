/**
 * The log as an operator's pipeline reads it: the built gateway's stdout is JSON lines, one per
 * request with its request id, route template, status, duration and user (and for relay calls the
 * token, model, channel and retries); a well-formed X-Request-Id is kept, answered and stored on
 * the events the request appended; and no secret sent through ever reaches the log, at debug.
 */
import OpenAI from 'openai';
import { request } from 'undici';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { readStoredEvents, waitUntil } from '../support/e2e-helpers';
import { gatewayApi, gatewayLogin, type GatewaySession } from '../support/gateway-http';
import { startGateway, type RunningGateway } from '../support/start-gateway';

jest.setTimeout(120_000);

const PASSWORD = 'Pw-marker-9137xq';
const CHANNEL_KEY = 'sk-channel-marker-4410';
const SMTP_SECRET = 'smtp-secret-marker-8812';
const PROMPT = 'PROMPT-MARKER-5521 tell me a story';
const COMPLETION = 'COMPLETION-MARKER-7734 once upon a time';
const WRONG_KEY = 'sk-wrongkeymarker0000000000000000000000000000000';

interface LogLine {
  level: string;
  time: string;
  msg: string;
  requestId?: string;
  method?: string;
  route?: string;
  status?: number;
  durationMs?: number;
  userId?: number;
  tokenId?: number;
  model?: string;
  channelId?: number;
  retries?: number;
}

function jsonLines(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

describe('request log and request ids (built gateway)', () => {
  let upstream: MockUpstream;
  let gateway: RunningGateway;
  let root: GatewaySession;
  let user: GatewaySession;
  let key: string;
  let accessToken: string;

  const lineOf = (requestId: string) =>
    jsonLines(gateway.output()).find((l) => l.msg === 'request' && l.requestId === requestId);
  const waitForLine = async (requestId: string): Promise<LogLine> => {
    await waitUntil(() => lineOf(requestId) !== undefined, `log line ${requestId}`, 10_000);
    return lineOf(requestId)!;
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start({ defaults: { content: COMPLETION, chunks: 4 } });
    gateway = await startGateway({ env: { LOG_LEVEL: 'debug' } });
    const url = gateway.url;
    root = await gatewayLogin(url, 'root', '123456');
    await gatewayApi(url, '/api/option/', {
      method: 'PUT',
      body: { key: 'SMTPToken', value: SMTP_SECRET },
      ...root,
    });
    await gatewayApi(url, '/api/option/', {
      method: 'PUT',
      body: { key: 'QuotaForNewUser', value: '5000000' },
      ...root,
    });
    await gatewayApi(url, '/api/channel/', {
      method: 'POST',
      body: {
        type: 1,
        name: 'mock',
        key: CHANNEL_KEY,
        base_url: upstream.url,
        models: 'gpt-4o-mini',
        group: 'default',
      },
      ...root,
    });
    await gatewayApi(url, '/api/user/register', {
      method: 'POST',
      body: { username: 'logged', password: PASSWORD, password2: PASSWORD },
    });
    user = await gatewayLogin(url, 'logged', PASSWORD);
    await gatewayApi(url, '/api/token/', {
      method: 'POST',
      body: { name: 'k', unlimited_quota: true },
      ...user,
    });
    const tokens = await gatewayApi(url, '/api/token/?p=0&size=10', { method: 'GET', ...user });
    key = (tokens.data as Array<{ key: string }>)[0]!.key;
    accessToken = (await gatewayApi(url, '/api/user/token', { method: 'GET', ...user }))
      .data as string;
  });

  afterAll(async () => {
    await gateway?.stop();
    await upstream?.close();
  });

  it('keeps a well-formed X-Request-Id, answers it, logs one line and puts it on the receipt', async () => {
    const client = new OpenAI({
      apiKey: key,
      baseURL: `${gateway.url}/v1`,
      defaultHeaders: { 'X-Request-Id': 'trace-abc.123' },
    });
    const { data, response } = await client.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] })
      .withResponse();
    expect(data.choices[0]?.message.content).toBe(COMPLETION);
    expect(response.headers.get('x-request-id')).toBe('trace-abc.123');

    const line = await waitForLine('trace-abc.123');
    expect(line).toMatchObject({
      level: 'info',
      method: 'POST',
      route: '/v1/chat/completions',
      status: 200,
      userId: user.userId,
      model: 'gpt-4o-mini',
      retries: 0,
    });
    expect(line.tokenId).toBeGreaterThan(0);
    expect((line as { gatewayId?: string }).gatewayId).toMatch(/^[0-9a-f]{32}$/);
    expect(line.channelId).toBeGreaterThan(0);
    expect(line.durationMs).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(line.time))).toBe(false);

    // A client reusing its id is billed again: the receipt's own id is the gateway's.
    await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: PROMPT }],
    });
    await waitUntil(
      () =>
        readStoredEvents(gateway.dataDir, { type: 'RequestRelayed' }).filter(
          (e) => e.metadata.correlationId === 'trace-abc.123',
        ).length === 2,
      'two receipts carrying the request id',
      10_000,
    );
    const receipts = readStoredEvents(gateway.dataDir, { type: 'RequestRelayed' }).filter(
      (e) => e.metadata.correlationId === 'trace-abc.123',
    );
    const ownIds = receipts.map((e) => e.data.requestId as string);
    expect(new Set(ownIds).size).toBe(2);
    for (const id of ownIds) expect(id).toMatch(/^[0-9a-f]{32}$/);
    // The first call's line names its receipt.
    expect(ownIds).toContain((line as { gatewayId?: string }).gatewayId);
  });

  it('replaces a malformed X-Request-Id and logs the one it made', async () => {
    for (const bad of ['has space', 'x'.repeat(65), 'semi;colon']) {
      const res = await request(`${gateway.url}/api/status`, { headers: { 'x-request-id': bad } });
      await res.body.text();
      const made = res.headers['x-request-id'] as string;
      expect(made).toMatch(/^[0-9a-f]{32}$/);
      expect(await waitForLine(made)).toMatchObject({
        method: 'GET',
        route: '/api/status',
        status: 200,
        userId: 0,
      });
    }
  });

  it('logs the console route template and the signed-in user, and the id reaches the history', async () => {
    const res = await request(`${gateway.url}/api/user/${user.userId}`, {
      headers: {
        cookie: root.cookie,
        'new-api-user': String(root.userId),
        'x-request-id': 'console-read-1',
      },
    });
    await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(await waitForLine('console-read-1')).toMatchObject({
      route: '/api/user/:id',
      status: 200,
      userId: root.userId,
    });

    const edited = await request(`${gateway.url}/api/user/`, {
      method: 'PUT',
      headers: {
        cookie: root.cookie,
        'new-api-user': String(root.userId),
        'content-type': 'application/json',
        'x-request-id': 'edit-req-42',
      },
      body: JSON.stringify({ id: user.userId, username: 'logged', display_name: 'Logged' }),
    });
    expect(((await edited.body.json()) as { success: boolean }).success).toBe(true);
    const history = await gatewayApi(gateway.url, `/api/user/${user.userId}/history?p=0`, {
      method: 'GET',
      ...root,
    });
    const items = (history.data as { items: Array<{ request_id: string }> }).items;
    expect(items.map((i) => i.request_id)).toContain('edit-req-42');
  });

  it('never logs keys, passwords, cookies, Authorization, access tokens, prompts or secrets', async () => {
    // A refused key, a wrong password, the access token as Authorization, a stream.
    const refused = await request(`${gateway.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${WRONG_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: PROMPT }] }),
    });
    expect(refused.statusCode).toBe(401);
    await refused.body.text();
    const wrongLogin = await request(`${gateway.url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'logged', password: `${PASSWORD}-wrong` }),
    });
    await wrongLogin.body.text();
    const byAccessToken = await request(`${gateway.url}/api/user/self`, {
      headers: { authorization: accessToken, 'new-api-user': String(user.userId) },
    });
    expect(byAccessToken.statusCode).toBe(200);
    await byAccessToken.body.text();
    const client = new OpenAI({ apiKey: key, baseURL: `${gateway.url}/v1` });
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: PROMPT }],
    });
    let streamed = '';
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta.content ?? '';
    expect(streamed).toBe(COMPLETION);
    await waitUntil(
      () => jsonLines(gateway.output()).filter((l) => l.msg === 'request').length >= 8,
      'the request lines',
      10_000,
    );
    await gateway.stop(); // flushes the log

    const output = gateway.output();
    const lines = jsonLines(output);
    expect(lines.filter((l) => l.msg === 'request').length).toBeGreaterThanOrEqual(8);
    const cookieValue = user.cookie.split('=')[1]!;
    const secrets = {
      key: key.replace(/^sk-/, ''),
      wrongKey: WRONG_KEY.replace(/^sk-/, ''),
      password: PASSWORD,
      cookie: cookieValue,
      accessToken,
      channelKey: CHANNEL_KEY,
      smtpSecret: SMTP_SECRET,
      prompt: 'PROMPT-MARKER',
      completion: 'COMPLETION-MARKER',
    };
    for (const [what, secret] of Object.entries(secrets)) {
      expect({ what, found: output.includes(secret) }).toEqual({ what, found: false });
    }
    expect(output.toLowerCase()).not.toContain('authorization');
    expect(output.toLowerCase()).not.toContain('cookie');
  });
});
