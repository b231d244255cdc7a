import { generateKeyPairSync } from 'node:crypto';
import type { JsonObject, WireChannel } from '@tollgate/relay';
import { framerFor } from '@tollgate/relay/providers/framers';
import { vertexAdaptor } from '@tollgate/relay/providers/vertex/vertex-adaptor';
import { VertexTokenCache } from '@tollgate/relay/providers/vertex/vertex-token';
import { MockUpstream } from '../mock-upstream';
import { VERTEX_TOKEN_PREFIX } from './vertex';

const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});

const GEMINI_PATH =
  '/v1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.0-flash';
const CLAUDE_PATH =
  '/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514';

describe('Vertex AI wire', () => {
  let upstream: MockUpstream;

  beforeAll(async () => {
    upstream = await MockUpstream.start();
  });
  afterAll(() => upstream.close());
  beforeEach(() => upstream.reset());

  const post = (path: string, body: object, headers: Record<string, string> = {}) =>
    fetch(`${upstream.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const bearer = { authorization: `Bearer ${VERTEX_TOKEN_PREFIX}1` };
  const form = (fields: Record<string, string>) =>
    fetch(`${upstream.url}/token`, { method: 'POST', body: new URLSearchParams(fields) });
  const jwtPart = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const assertion = (claims: object) =>
    `${jwtPart({ alg: 'RS256', typ: 'JWT' })}.${jwtPart(claims)}.c2ln`;

  it('issues a token for a jwt-bearer grant', async () => {
    const res = await form({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: assertion({ iss: 'sa@p.iam.gserviceaccount.com', iat: 1, exp: 3601 }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      access_token: expect.stringMatching(/^ya29\.mock-/),
      expires_in: 3600,
      token_type: 'Bearer',
    });
    expect(upstream.lastRequest()?.body).toMatchObject({ grant_type: expect.any(String) });
  });

  it('refuses another grant type and a malformed assertion', async () => {
    const wrongGrant = await form({ grant_type: 'client_credentials', assertion: 'x' });
    expect(wrongGrant.status).toBe(400);
    expect(await wrongGrant.json()).toMatchObject({ error: 'unsupported_grant_type' });
    const malformed = await form({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: 'not-a-jwt',
    });
    expect(await malformed.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it("answers generateContent with the Gemini wire's body, the model from the path", async () => {
    upstream.setDefaults({ content: 'Hello Vertex' });
    const res = await post(`${GEMINI_PATH}:generateContent`, { contents: [] }, bearer);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      candidates: [{ content: { parts: [{ text: 'Hello Vertex' }] }, finishReason: 'STOP' }],
      modelVersion: 'gemini-2.0-flash',
    });
  });

  it('answers rawPredict with a Messages answer and refuses a body with a model', async () => {
    const body = { anthropic_version: 'vertex-2023-10-16', max_tokens: 9, messages: [] };
    const res = await post(`${CLAUDE_PATH}:rawPredict`, body, bearer);
    expect(await res.json()).toMatchObject({
      type: 'message',
      model: 'claude-sonnet-4@20250514',
      stop_reason: 'end_turn',
    });
    const refused = await post(`${CLAUDE_PATH}:rawPredict`, { ...body, model: 'x' }, bearer);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ type: 'error' });
  });

  it("refuses a call without a token this endpoint issued, in Google's shape", async () => {
    const missing = await post(`${GEMINI_PATH}:generateContent`, {});
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({
      error: { code: 401, status: 'UNAUTHENTICATED' },
    });
    const foreign = await post(`${CLAUDE_PATH}:rawPredict`, {}, { authorization: 'Bearer sk-1' });
    expect(foreign.status).toBe(401);
  });

  it('answers canned failures in Google’s shape', async () => {
    upstream.setDefaults({ fail: 'rate_limit' });
    const res = await post(`${GEMINI_PATH}:generateContent`, {}, bearer);
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: { status: 'RESOURCE_EXHAUSTED' } });
  });

  describe('round trip through the Vertex adaptor', () => {
    const channel = (): WireChannel => ({
      type: 41,
      baseUrl: upstream.url,
      key: JSON.stringify({
        type: 'service_account',
        project_id: 'proj-1',
        private_key: privateKey,
        client_email: 'relay@proj-1.iam.gserviceaccount.com',
        token_uri: `${upstream.url}/token`,
      }),
      other: '{"default":"us-central1","claude-sonnet-4-20250514":"us-east5"}',
      openaiOrganization: '',
      modelMapping: {},
    });
    const ctx = { id: 'chatcmpl-vx', model: 'client-model', created: 1 };
    const openai = { model: 'client-model', messages: [{ role: 'user', content: 'hi' }] };

    async function streamed(upstreamModel: string) {
      const adaptor = vertexAdaptor(new VertexTokenCache());
      const now = new Date();
      const req = await adaptor.authorize!(
        adaptor.request('chat', openai, channel(), upstreamModel, true, now),
        channel(),
        now,
      );
      const res = await fetch(`${req.origin}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      });
      expect(res.status).toBe(200);
      const framer = framerFor(adaptor.framing);
      const converter = adaptor.stream(ctx);
      const chunks: JsonObject[] = [];
      const events = [...framer.push(Buffer.from(await res.arrayBuffer())), ...framer.end()];
      for (const event of events) {
        chunks.push(...converter.event(JSON.parse(event.data) as JsonObject, event.name));
      }
      chunks.push(...converter.end());
      const text = chunks
        .map((c) => (c.choices as JsonObject[])[0]?.delta as JsonObject | undefined)
        .map((d) => (typeof d?.content === 'string' ? d.content : ''))
        .join('');
      return { text, usage: converter.usage(), chunks };
    }

    it('streams Gemini: token, streamGenerateContent, SSE, OpenAI chunks and usage', async () => {
      upstream.setDefaults({
        content: 'Hello from Gemini',
        chunks: 3,
        usage: { prompt_tokens: 7 },
      });
      const { text, usage } = await streamed('gemini-2.0-flash');
      expect(text).toBe('Hello from Gemini');
      expect(usage).toMatchObject({ promptTokens: 7, completionTokens: 3 });
      const [grant, call] = upstream.requests;
      expect(grant?.path).toBe('/token');
      expect(call?.path).toBe(`${GEMINI_PATH}:streamGenerateContent`);
      expect(call?.query).toEqual({ alt: 'sse' });
      expect(call?.key).toMatch(/^ya29\.mock-/);
    });

    it('streams Claude: streamRawPredict in its own region, Anthropic events converted', async () => {
      upstream.setDefaults({
        content: 'Hello from Claude',
        chunks: 2,
        usage: { prompt_tokens: 5 },
      });
      const { text, usage } = await streamed('claude-sonnet-4-20250514');
      expect(text).toBe('Hello from Claude');
      expect(usage).toMatchObject({ promptTokens: 5, completionTokens: 2 });
      expect(upstream.lastRequest()?.path).toBe(`${CLAUDE_PATH}:streamRawPredict`);
      expect(upstream.lastRequest()?.body).toMatchObject({
        anthropic_version: 'vertex-2023-10-16',
        stream: true,
      });
    });

    it('answers non-stream calls for both publishers with one cached token', async () => {
      upstream.setDefaults({ content: 'Whole answer' });
      const adaptor = vertexAdaptor(new VertexTokenCache());
      for (const model of ['gemini-2.0-flash', 'claude-sonnet-4-20250514']) {
        const now = new Date();
        const req = await adaptor.authorize!(
          adaptor.request('chat', openai, channel(), model, false, now),
          channel(),
          now,
        );
        const res = await fetch(`${req.origin}${req.path}`, {
          method: req.method,
          headers: req.headers,
          body: req.body,
        });
        const answer = adaptor.response('chat', (await res.json()) as JsonObject, ctx);
        expect(answer).toMatchObject({
          ok: true,
          body: { model: 'client-model', choices: [{ message: { content: 'Whole answer' } }] },
        });
      }
      expect(upstream.requestsTo('/token')).toHaveLength(1);
    });

    it('reads a failed call through the adaptor', async () => {
      upstream.next({ fail: 'server_error' }, 1);
      const adaptor = vertexAdaptor(new VertexTokenCache());
      const now = new Date();
      // The queued failure hits the token request: the token endpoint's error surfaces.
      await expect(
        adaptor.authorize!(
          adaptor.request('chat', openai, channel(), 'gemini-2.0-flash', false, now),
          channel(),
          now,
        ),
      ).rejects.toThrow(/no access token for relay@proj-1/);
      const req = await adaptor.authorize!(
        adaptor.request('chat', openai, channel(), 'gemini-2.0-flash', false, now),
        channel(),
        now,
      );
      upstream.next({ fail: 'quota_exceeded' }, 1);
      const res = await fetch(`${req.origin}${req.path}`, {
        method: req.method,
        headers: req.headers,
        body: req.body,
      });
      expect(res.status).toBe(429);
      expect(adaptor.error(res.status, await res.text())).toMatchObject({
        type: 'resource_exhausted',
        code: 'RESOURCE_EXHAUSTED',
      });
    });
  });
});
