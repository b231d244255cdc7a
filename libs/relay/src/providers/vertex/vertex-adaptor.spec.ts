import type { JsonObject } from '../../openai/request-body';
import type { ProviderRequest } from '../chat-adaptor';
import type { VertexServiceAccount } from './vertex-key';
import {
  VERTEX_ANTHROPIC_VERSION,
  vertexAdaptor,
  vertexAdaptorFor,
  type VertexTokens,
} from './vertex-adaptor';
import { vertexClaudeModelId, vertexPublisherOf } from './vertex-target';
import { wireChannel } from '../testing-fixtures';

const KEY = JSON.stringify({
  type: 'service_account',
  project_id: 'proj-1',
  private_key: 'pem',
  client_email: 'relay@proj-1.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
});

const channel = (other = '', baseUrl = '') => wireChannel(41, { baseUrl, key: KEY, other });

const seen: Array<{ account: VertexServiceAccount; now: Date }> = [];
const tokens: VertexTokens = {
  accessToken: (account, now) => {
    seen.push({ account, now });
    return Promise.resolve('ya29.stub');
  },
};
const adaptor = vertexAdaptor(tokens);
const openai = { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 20 };
const now = new Date(0);
const ctx = { id: 'chatcmpl-1', model: 'client-name', created: 1 };
const bodyOf = (req: ProviderRequest) => JSON.parse(req.body.toString('utf8')) as JsonObject;

describe('Vertex AI adaptor: requests', () => {
  it('sends Gemini models to generateContent in the default region', () => {
    const req = adaptor.request('chat', openai, channel(), 'gemini-2.0-flash', false, now);
    expect(req.origin).toBe('https://us-central1-aiplatform.googleapis.com');
    expect(req.path).toBe(
      '/v1/projects/proj-1/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent',
    );
    expect(req.headers).toEqual({ 'content-type': 'application/json' });
    expect(bodyOf(req)).toMatchObject({
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
      generationConfig: { maxOutputTokens: 20 },
    });
  });

  it('streams Gemini as SSE; global has no region in the host', () => {
    const req = adaptor.request('chat', openai, channel('global'), 'gemini-2.5-pro', true, now);
    expect(`${req.origin}${req.path}`).toBe(
      'https://aiplatform.googleapis.com/v1/projects/proj-1/locations/global/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(req.headers.accept).toBe('text/event-stream');
  });

  it("sends Claude to rawPredict in the model's region, Vertex's envelope in the body", () => {
    const other = '{"default":"us-central1","claude-3-5-sonnet-20240620":"us-east5"}';
    const model = 'claude-3-5-sonnet-20240620';
    const req = adaptor.request('chat', openai, channel(other), model, false, now);
    expect(`${req.origin}${req.path}`).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/proj-1/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet@20240620:rawPredict',
    );
    const body = bodyOf(req);
    expect(body.model).toBeUndefined();
    expect(body).toMatchObject({
      anthropic_version: VERTEX_ANTHROPIC_VERSION,
      max_tokens: 20,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(req.headers['x-api-key']).toBeUndefined();
  });

  it('streams Claude through streamRawPredict with stream in the body', () => {
    const req = adaptor.request('chat', openai, channel(), 'claude-sonnet-4@20250514', true, now);
    expect(req.path).toMatch(
      /\/publishers\/anthropic\/models\/claude-sonnet-4@20250514:streamRawPredict$/,
    );
    expect(bodyOf(req).stream).toBe(true);
  });

  it("uses a channel's own base URL as the origin", () => {
    const req = adaptor.request(
      'chat',
      openai,
      channel('', 'http://127.0.0.1:8/'),
      'gemini-x',
      false,
      now,
    );
    expect(req.origin).toBe('http://127.0.0.1:8');
    expect(req.path).toMatch(/^\/v1\/projects\/proj-1\/locations\/us-central1\//);
  });

  it('throws a clear error for a bad key or region (the attempt fails on this channel)', () => {
    const bad = { ...channel(), key: 'AKID|secret|us-east-1' };
    expect(() => adaptor.request('chat', openai, bad, 'gemini-x', false, now)).toThrow(/not JSON/);
    expect(() =>
      adaptor.request('chat', openai, channel('{"default":'), 'gemini-x', false, now),
    ).toThrow(/Vertex AI region/);
  });

  it('authorizes with the service account access token', async () => {
    seen.length = 0;
    const req = adaptor.request('chat', openai, channel(), 'gemini-x', false, now);
    const authorized = await adaptor.authorize!(req, channel(), now);
    expect(authorized.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer ya29.stub',
    });
    expect(seen).toEqual([
      {
        account: expect.objectContaining({ clientEmail: 'relay@proj-1.iam.gserviceaccount.com' }),
        now,
      },
    ]);
    expect(req.headers.authorization).toBeUndefined();
  });
});

describe('Vertex AI adaptor: answers', () => {
  it('reads a Gemini answer and an Anthropic message by their shape', () => {
    const gemini = adaptor.response(
      'chat',
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'G' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1, totalTokenCount: 4 },
      },
      ctx,
    );
    const claude = adaptor.response(
      'chat',
      {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'C' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 3, output_tokens: 1 },
      },
      ctx,
    );
    for (const [answer, text] of [
      [gemini, 'G'],
      [claude, 'C'],
    ] as const) {
      expect(answer.ok).toBe(true);
      if (!answer.ok) continue;
      expect(answer.body).toMatchObject({
        model: 'client-name',
        choices: [{ message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      });
      expect(answer.usage).toMatchObject({ promptTokens: 3, completionTokens: 1 });
    }
  });

  it('converts a Claude stream (named events) and a Gemini stream (bare data)', () => {
    const claude = adaptor.stream(ctx);
    const out = [
      ...claude.event(
        {
          type: 'message_start',
          message: { id: 'msg_1', usage: { input_tokens: 2, output_tokens: 0 } },
        },
        'message_start',
      ),
      ...claude.event(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
      ...claude.event(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
        'content_block_delta',
      ),
      ...claude.event(
        { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 1 } },
        'message_delta',
      ),
      ...claude.event({ type: 'message_stop' }, 'message_stop'),
      ...claude.end(),
    ];
    expect(JSON.stringify(out)).toContain('"content":"Hi"');
    expect(claude.usage()).toMatchObject({ promptTokens: 2, completionTokens: 1 });

    const gemini = adaptor.stream(ctx);
    const chunks = [
      ...gemini.event({ candidates: [{ content: { role: 'model', parts: [{ text: 'Yo' }] } }] }),
      ...gemini.event({
        candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1, totalTokenCount: 5 },
      }),
      ...gemini.end(),
    ];
    expect(JSON.stringify(chunks)).toContain('"content":"Yo"');
    expect(gemini.usage()).toMatchObject({ promptTokens: 4, completionTokens: 1 });
  });

  it('ends an empty stream with nothing', () => {
    const converter = adaptor.stream(ctx);
    expect(converter.end()).toEqual([]);
    expect(converter.usage()).toBeUndefined();
    expect(converter.failure()).toBeUndefined();
  });

  it("reads Google's and Anthropic's error bodies", () => {
    expect(
      adaptor.error(
        401,
        '{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}',
      ),
    ).toEqual({
      message: 'Request had invalid authentication credentials.',
      type: 'unauthenticated',
      code: 'UNAUTHENTICATED',
    });
    expect(
      adaptor.error(
        400,
        '{"type":"error","error":{"type":"invalid_request_error","message":"bad"}}',
      ),
    ).toMatchObject({ message: 'bad', type: 'invalid_request_error' });
    expect(adaptor.error(502, 'Bad Gateway').message).toBe('Bad Gateway');
  });
});

describe('Vertex AI models', () => {
  it('tells publishers apart by the model name', () => {
    expect(vertexPublisherOf('claude-3-haiku@20240307')).toBe('anthropic');
    expect(vertexPublisherOf('gemini-2.0-flash')).toBe('google');
    expect(vertexAdaptorFor('claude-opus-4-1', tokens).name).toBe('vertex-ai-claude');
    expect(vertexAdaptorFor('gemini-1.5-pro', tokens).name).toBe('vertex-ai-gemini');
  });

  it.each([
    ['claude-3-5-sonnet-20240620', 'claude-3-5-sonnet@20240620'],
    ['claude-3-5-sonnet-20241022', 'claude-3-5-sonnet-v2@20241022'],
    ['claude-sonnet-4-20250514', 'claude-sonnet-4@20250514'],
    ['claude-opus-4-1@20250805', 'claude-opus-4-1@20250805'],
    ['claude-opus-4-5', 'claude-opus-4-5'],
  ])('spells %s as %s', (model, id) => {
    expect(vertexClaudeModelId(model)).toBe(id);
  });
});
