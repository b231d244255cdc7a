import {
  rawExchange,
  requestHead,
  serverSockets,
  startUpload,
  type RawAnswer,
} from '../support/raw-http';
import { createRelayToken } from '../support/relay-helpers';
import { registerAndLogin, startTestApp, type TestApp } from '../support/test-app';
import { REFUSED_BODY_DRAIN_BYTES } from '../../apps/gateway/src/relay/relay-gate';

jest.setTimeout(60_000);

/**
 * The relay's edge: a request is admitted on its headers before the gateway reads its body, a
 * refused upload is cut instead of drained, and every answer under the relay's prefixes is in the
 * protocol of the path — OpenAI's on /v1, Anthropic's on /v1/messages, Google's on /v1beta.
 */

const MIB = 1024 * 1024;
const ATTACK_BYTES = 32 * MIB;
/** Node reads a socket up to 64 KiB at a time: what came with the headers is read with them. */
const ONE_SOCKET_READ = 64 * 1024;
const JSON_TYPE = { 'content-type': 'application/json' };
const EN = { 'accept-language': 'en' };

const openAiError = (code: string) => ({
  error: {
    message: expect.stringMatching(/\(request id: \w+\)$/),
    type: expect.any(String),
    param: '',
    code,
  },
});
const anthropicError = (type: string) => ({
  type: 'error',
  error: { type, message: expect.stringMatching(/\(request id: \w+\)$/) },
});
const googleError = (code: number, status: string) => ({
  error: { code, status, message: expect.stringMatching(/\(request id: \w+\)$/) },
});

describe('the relay edge', () => {
  let t: TestApp;
  let sockets: ReturnType<typeof serverSockets>;
  let key = '';
  let disabledKey = '';

  beforeAll(async () => {
    t = await startTestApp();
    sockets = serverSockets(t.app.getHttpServer());
    const user = await registerAndLogin(t.url, 'edgeuser');
    key = (await createRelayToken(user, { name: 'edge', unlimited_quota: true })).key;
    const off = await createRelayToken(user, { name: 'off', unlimited_quota: true });
    disabledKey = off.key;
    const disabled = await user.put('/api/token/?status_only=true', { id: off.tokenId, status: 2 });
    expect(disabled.body.success).toBe(true);
  });

  afterAll(() => t.close());

  /** The 32 MB upload whose head is refused: sent slowly, 1 KiB and then a pause. */
  async function slowUpload(path: string, headers: Record<string, string>, method = 'POST') {
    const head = requestHead(method, path, {
      ...JSON_TYPE,
      'content-length': String(ATTACK_BYTES),
      ...headers,
    });
    const upload = await startUpload(t.url, head);
    await upload.send(1024);
    const answer = await upload.answer();
    // Answered while the client had sent 1 KiB of 32 MB: the gateway did not wait for the body.
    expect(upload.bodySent).toBe(1024);
    await upload.closed; // and it closed the connection rather than wait for (or drain) the rest
    expect(await upload.send(1024)).toBe(false);
    const read = sockets.byClientPort(upload.port)!.bytesRead;
    expect(read).toBeLessThanOrEqual(Buffer.byteLength(head) + 1024);
    return answer;
  }

  const REFUSED: ReadonlyArray<[string, Record<string, string>, (a: RawAnswer) => void]> = [
    [
      '/v1/chat/completions',
      {},
      (a) => expect([a.status, a.json]).toEqual([401, openAiError('token_missing')]),
    ],
    [
      '/v1/chat/completions',
      { authorization: 'Bearer sk-not-a-key' },
      (a) => expect([a.status, a.json]).toEqual([401, openAiError('token_invalid')]),
    ],
    [
      '/v1/messages',
      { 'x-api-key': 'sk-not-a-key' },
      (a) => expect([a.status, a.json]).toEqual([401, anthropicError('authentication_error')]),
    ],
    [
      '/v1beta/models/gpt-4o-mini:generateContent',
      {},
      (a) => expect([a.status, a.json]).toEqual([401, googleError(401, 'UNAUTHENTICATED')]),
    ],
    [
      '/mj/submit/imagine',
      {},
      (a) => expect([a.status, a.json]).toEqual([401, openAiError('token_missing')]),
    ],
    [
      '/suno/submit/music',
      { 'mj-api-secret': 'sk-not-a-key' },
      (a) => expect([a.status, a.json]).toEqual([401, openAiError('token_invalid')]),
    ],
    ['/pg/chat/completions', {}, (a) => expect(a.status).toBe(401)],
  ];

  it.each(REFUSED)(
    'POST %s %j: refused at its headers, the connection closed after 1 KiB of 32 MB',
    async (path, headers, check) => {
      check(await slowUpload(path, headers));
    },
  );

  it('the CORS preflight is answered at its headers too, whatever body it announces', async () => {
    const answer = await slowUpload('/v1/chat/completions', {}, 'OPTIONS');
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it('a disabled token is refused before its body too', async () => {
    const answer = await slowUpload('/v1/chat/completions', {
      authorization: `Bearer sk-${disabledKey}`,
    });
    expect([answer.status, answer.json]).toEqual([401, openAiError('token_disabled')]);
  });

  it.each(['/v1/chat/completions', '/mj/submit/imagine', '/suno/submit/music'])(
    'POST %s without a key, 32 MB as fast as the socket takes it: the gateway reads one socket read',
    async (path) => {
      const head = requestHead('POST', path, {
        ...JSON_TYPE,
        'content-length': String(ATTACK_BYTES),
      });
      const upload = await startUpload(t.url, head);
      await upload.blast(ATTACK_BYTES);
      await upload.closed;
      expect(upload.bodySent).toBeLessThan(ATTACK_BYTES);
      expect(upload.received).toMatch(/^HTTP\/1\.1 401 /);
      const read = sockets.byClientPort(upload.port)!.bytesRead;
      expect(read).toBeLessThanOrEqual(ONE_SOCKET_READ + Buffer.byteLength(head));
    },
  );

  it('a valid key with a 32 MB body gets the 413 in OpenAI shape, and the rest is not read', async () => {
    const head = requestHead('POST', '/v1/chat/completions', {
      ...JSON_TYPE,
      ...EN,
      authorization: `Bearer sk-${key}`,
      'content-length': String(ATTACK_BYTES + 1),
    });
    const upload = await startUpload(t.url, head);
    await upload.send(1024);
    const answer = await upload.answer();
    expect([answer.status, answer.json]).toEqual([413, openAiError('request_too_large')]);
    expect((answer.json as { error: { message: string } }).error.message).toContain('32 MiB');
    expect(answer.headers['connection']).toBe('close');
    await upload.closed;
    expect(sockets.byClientPort(upload.port)!.bytesRead).toBeLessThanOrEqual(
      Buffer.byteLength(head) + 1024,
    );
  });

  it('a refused request with a small body is drained: its connection serves the next request', async () => {
    const body = '{"model":"gpt-4o-mini"}'.padEnd(REFUSED_BODY_DRAIN_BYTES, ' ');
    const first = requestHead('POST', '/v1/chat/completions', {
      ...JSON_TYPE,
      'content-length': String(body.length),
    });
    const upload = await startUpload(t.url, first + body);
    const answer = await upload.answer();
    expect(answer.status).toBe(401);
    expect(answer.headers['connection']).not.toBe('close');
    upload.socket.write(
      requestHead('GET', '/v1/models', { authorization: `Bearer sk-${key}`, connection: 'close' }),
    );
    await upload.closed;
    const second = upload.received.slice(upload.received.indexOf('HTTP/1.1', 1));
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
  });

  it.each(['/api/nothing', '/console/nothing'])(
    'outside the relay, POST %s (no route) with 15 MB announced: 404 at its headers, closed',
    async (path) => {
      const head = requestHead('POST', path, {
        ...JSON_TYPE,
        'content-length': String(15 * MIB),
      });
      const upload = await startUpload(t.url, head);
      await upload.send(1024);
      const answer = await upload.answer();
      expect([answer.status, answer.json]).toEqual([
        404,
        { success: false, message: expect.any(String) },
      ]);
      await upload.closed;
      expect(sockets.byClientPort(upload.port)!.bytesRead).toBeLessThanOrEqual(
        Buffer.byteLength(head) + 1024,
      );
    },
  );

  describe('answers no handler writes, in the protocol of the path', () => {
    const exchange = (method: string, path: string, headers: Record<string, string> = {}) =>
      rawExchange(t.url, requestHead(method, path, { ...EN, connection: 'close', ...headers }));

    it('404 and 405 on /v1, /v1/messages and /v1beta', async () => {
      const answers = [
        await exchange('GET', '/v1/nothing'),
        await exchange('GET', '/v1/chat/completions'),
        await exchange('GET', '/v1/messages/nothing'),
        await exchange('GET', '/v1/messages'),
        await exchange('GET', '/v1beta/nothing'),
        await exchange('PUT', '/v1beta/models'),
      ];
      expect(answers.map((a) => [a.status, a.headers['allow'], a.json])).toEqual([
        [404, undefined, openAiError('not_found')],
        [405, 'POST', openAiError('method_not_allowed')],
        [404, undefined, anthropicError('not_found_error')],
        [405, 'POST', anthropicError('invalid_request_error')],
        [404, undefined, googleError(404, 'NOT_FOUND')],
        [405, 'GET', googleError(405, expect.any(String))],
      ]);
      expect((answers[0]!.json as { error: { message: string } }).error.message).toMatch(
        /^Invalid URL \(GET \/v1\/nothing\)/,
      );
    });

    it('413 on /v1/messages and /v1beta with a valid key', async () => {
      const tooLarge = { ...JSON_TYPE, 'content-length': String(ATTACK_BYTES + 1) };
      const anthropic = await exchange('POST', '/v1/messages', {
        ...tooLarge,
        'x-api-key': key,
      });
      const gemini = await exchange(
        'POST',
        `/v1beta/models/gpt-4o-mini:generateContent?key=${key}`,
        {
          ...tooLarge,
        },
      );
      expect([anthropic.status, anthropic.json]).toEqual([
        413,
        anthropicError('request_too_large'),
      ]);
      expect([gemini.status, gemini.json]).toEqual([413, googleError(413, expect.any(String))]);
    });

    it('414 for a path parameter over the router limit', async () => {
      const answer = await exchange('GET', `/v1/models/${'x'.repeat(3000)}`, {
        authorization: `Bearer sk-${key}`,
      });
      expect([answer.status, answer.json]).toEqual([414, openAiError('uri_too_long')]);
    });

    it("431 from Node's parser (headers or URL over 16 KiB), shaped by the path it read", async () => {
      const big = { 'x-big': 'y'.repeat(20_000) };
      const answers = [
        await exchange('GET', '/v1/models', big),
        await exchange('GET', `/v1/models?q=${'y'.repeat(20_000)}`),
        await exchange('POST', '/v1/messages', big),
        await exchange('GET', '/v1beta/models', big),
      ];
      expect(answers.map((a) => [a.status, a.json])).toEqual([
        [431, openAiError('headers_too_large')],
        [431, openAiError('headers_too_large')],
        [431, anthropicError(expect.any(String))],
        [431, googleError(431, expect.any(String))],
      ]);
    });
  });
});
