import { MockUpstream } from '../mock-upstream';
import { MOCK_JSON_REST } from './anthropic-messages';

describe('mock upstream: Anthropic wire', () => {
  let mock: MockUpstream;
  beforeAll(async () => {
    mock = await MockUpstream.start();
  });
  afterAll(() => mock.close());
  beforeEach(() => mock.reset());

  const post = (body: object, headers: Record<string, string> = {}) =>
    fetch(`${mock.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'sk-ant', ...headers },
      body: JSON.stringify(body),
    });

  it('answers a message with usage split into input, cache reads and cache writes', async () => {
    mock.setDefaults({
      content: 'Hello there',
      usage: {
        prompt_tokens: 100,
        completion_tokens: 4,
        cached_tokens: 60,
        cache_creation_tokens: 30,
      },
    });
    const res = await post({
      model: 'claude-x',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      type: 'message',
      model: 'claude-x',
      content: [{ type: 'text', text: 'Hello there' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 10,
        cache_read_input_tokens: 60,
        cache_creation_input_tokens: 30,
        output_tokens: 4,
      },
    });
    expect(mock.lastRequest()).toMatchObject({ key: 'sk-ant', path: '/v1/messages' });
  });

  it('streams the documented event sequence with event names', async () => {
    mock.setDefaults({ chunks: 2, content: 'ab' });
    const res = await post({ model: 'claude-x', max_tokens: 10, stream: true, messages: [] });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const text = await res.text();
    const names = [...text.matchAll(/^event: (\w+)$/gm)].map((m) => m[1]);
    expect(names).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(text).toContain('"delta":{"type":"text_delta","text":"a"}');
    expect(text).toContain('"usage":{"output_tokens":2}');
  });

  it('continues a `{` prefill as JSON; refuses a prefill with thinking, as Anthropic does', async () => {
    const prefilled = [
      { role: 'user', content: 'JSON please' },
      { role: 'assistant', content: [{ type: 'text', text: '{' }] },
    ];
    const res = await post({ model: 'claude-x', max_tokens: 10, messages: prefilled });
    const { content } = (await res.json()) as { content: Array<{ text: string }> };
    expect(JSON.parse(`{${content[0]!.text}`)).toEqual(JSON.parse(`{${MOCK_JSON_REST}`));
    const stream = await post({
      model: 'claude-x',
      max_tokens: 10,
      stream: true,
      messages: prefilled,
    });
    const deltas = [...(await stream.text()).matchAll(/"text_delta","text":("(?:[^"\\]|\\.)*")/g)];
    expect(deltas.map((m) => JSON.parse(m[1]!) as string).join('')).toBe(MOCK_JSON_REST);
    const thinking = { type: 'enabled', budget_tokens: 1024 };
    const refused = await post({
      model: 'claude-x',
      max_tokens: 2000,
      thinking,
      messages: prefilled,
    });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('thinking block') },
    });
  });

  it('refuses a prefill on Claude 4.6 and later, as those models do', async () => {
    const prefilled = [
      { role: 'user', content: 'JSON please' },
      { role: 'assistant', content: [{ type: 'text', text: '{' }] },
    ];
    for (const model of ['claude-opus-4-6', 'claude-sonnet-5-20260101']) {
      const refused = await post({ model, max_tokens: 10, messages: prefilled });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({
        error: { type: 'invalid_request_error', message: expect.stringContaining('prefill') },
      });
    }
    for (const model of ['claude-sonnet-4-5', 'claude-opus-4-20250514', 'claude-3-7-sonnet']) {
      const served = await post({ model, max_tokens: 10, messages: prefilled });
      expect(served.status).toBe(200);
    }
    const asked = await post({
      model: 'claude-opus-4-6',
      max_tokens: 10,
      messages: prefilled.slice(0, 1),
    });
    expect(asked.status).toBe(200);
  });

  it("fails in Anthropic's error shape", async () => {
    mock.acceptKeys(['sk-good']);
    const res = await post({ model: 'c', max_tokens: 1, messages: [] });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({
      type: 'error',
      error: { type: 'authentication_error', message: 'invalid x-api-key' },
    });
    mock.acceptKeys(undefined);
    mock.next({ status: 529 });
    const overloaded = await post({ model: 'c', max_tokens: 1, messages: [] });
    expect(overloaded.status).toBe(529);
    expect(await overloaded.json()).toMatchObject({ error: { type: 'overloaded_error' } });
  });
});
