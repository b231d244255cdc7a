import type { JsonObject } from '../../openai/request-body';
import { ANTHROPIC_ADAPTOR, ANTHROPIC_VERSION } from './anthropic-adaptor';
import { wireChannel } from '../testing-fixtures';

const channel = wireChannel(14, { baseUrl: 'https://api.anthropic.com', key: 'sk-ant-upstream' });
const ctx = { id: 'chatcmpl-req1', model: 'claude-3-5-sonnet-20241022', created: 1_700_000_000 };
const now = new Date('2026-01-01T00:00:00Z');

function requestOf(openai: JsonObject, stream = false) {
  const req = ANTHROPIC_ADAPTOR.request('chat', openai, channel, 'claude-upstream', stream, now);
  return { req, body: JSON.parse(req.body.toString('utf8')) as JsonObject };
}

describe('Anthropic adaptor: OpenAI request → Messages request', () => {
  it('sends to /v1/messages with x-api-key and anthropic-version', () => {
    const { req } = requestOf({ model: 'claude', messages: [{ role: 'user', content: 'Hi' }] });
    expect(req).toMatchObject({
      method: 'POST',
      origin: 'https://api.anthropic.com',
      path: '/v1/messages',
      headers: {
        'x-api-key': 'sk-ant-upstream',
        'anthropic-version': ANTHROPIC_VERSION,
        'content-type': 'application/json',
      },
    });
    expect(req.headers.authorization).toBeUndefined();
  });

  it('moves system messages out, merges tool results into one user turn, maps tools', () => {
    const { body } = requestOf({
      model: 'claude',
      max_tokens: 300,
      temperature: 1.6,
      stop: 'END',
      user: 'u-7',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric units.' }] },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Paris"}' },
            },
            {
              id: 'call_2',
              type: 'function',
              function: { name: 'weather', arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '18C' },
        { role: 'tool', tool_call_id: 'call_2', content: '24C' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'weather',
            description: 'Current weather',
            parameters: { type: 'object', properties: { city: { type: 'string' } } },
          },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
    });
    expect(body).toEqual({
      model: 'claude-upstream',
      max_tokens: 300,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: 'Use metric units.' },
      ],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'weather', input: { city: 'Rome' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '18C' },
            { type: 'tool_result', tool_use_id: 'call_2', content: '24C' },
          ],
        },
      ],
      temperature: 1,
      stop_sequences: ['END'],
      tools: [
        {
          name: 'weather',
          description: 'Current weather',
          input_schema: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      metadata: { user_id: 'u-7' },
    });
  });

  it('turns data-URL images into base64 sources and http URLs into url sources', () => {
    const { body } = requestOf({
      model: 'claude',
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Compare' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
      ],
    });
    expect((body.messages as JsonObject[])[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Compare' },
        {
          type: 'image',
          source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
        },
        { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
      ],
    });
    expect(body.max_tokens).toBe(8192); // Anthropic requires it
  });

  it('asks for a stream when the client streams', () => {
    const { req, body } = requestOf(
      { model: 'c', messages: [{ role: 'user', content: 'x' }] },
      true,
    );
    expect(body.stream).toBe(true);
    expect(req.headers.accept).toBe('text/event-stream');
  });
});

describe('Anthropic adaptor: Messages answer → OpenAI answer', () => {
  it('maps text, tool use, stop reason and usage with cache reads and writes', () => {
    const answer = ANTHROPIC_ADAPTOR.response(
      'chat',
      {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-3-5-sonnet-20241022',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_01', name: 'weather', input: { city: 'Paris' } },
        ],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: {
          input_tokens: 20,
          cache_creation_input_tokens: 1000,
          cache_read_input_tokens: 3000,
          output_tokens: 42,
        },
      },
      ctx,
    );
    expect(answer).toEqual({
      ok: true,
      usage: {
        promptTokens: 4020,
        completionTokens: 42,
        cachedTokens: 3000,
        cacheCreationTokens: 1000,
      },
      body: {
        id: 'chatcmpl-req1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'claude-3-5-sonnet-20241022',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Checking.',
              tool_calls: [
                {
                  id: 'toolu_01',
                  type: 'function',
                  function: { name: 'weather', arguments: '{"city":"Paris"}' },
                },
              ],
            },
            logprobs: null,
            finish_reason: 'tool_calls',
          },
        ],
        usage: {
          prompt_tokens: 4020,
          completion_tokens: 42,
          total_tokens: 4062,
          prompt_tokens_details: { cached_tokens: 3000 },
        },
      },
    });
  });

  it('keeps thinking as reasoning_content and max_tokens as length', () => {
    const answer = ANTHROPIC_ADAPTOR.response(
      'chat',
      {
        content: [
          { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
          { type: 'text', text: 'Yes' },
        ],
        stop_reason: 'max_tokens',
        usage: { input_tokens: 5, output_tokens: 9 },
      },
      ctx,
    );
    expect(answer.ok && answer.body.choices).toEqual([
      {
        index: 0,
        message: { role: 'assistant', content: 'Yes', reasoning_content: 'Let me see.' },
        logprobs: null,
        finish_reason: 'length',
      },
    ]);
  });
});

describe('Anthropic adaptor: stream events → OpenAI chunks', () => {
  it('converts the documented event sequence with a tool call and reports usage at the end', () => {
    const conv = ANTHROPIC_ADAPTOR.stream(ctx);
    const events: JsonObject[] = [
      {
        type: 'message_start',
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          content: [],
          usage: { input_tokens: 25, cache_read_input_tokens: 100, output_tokens: 1 },
        },
      },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'ping' },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_9', name: 'weather', input: {} },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"city":' },
      },
      {
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '"Rome"}' },
      },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'tool_use', stop_sequence: null },
        usage: { output_tokens: 15 },
      },
      { type: 'message_stop' },
    ];
    const deltas = events.flatMap((e) => conv.event(e)).map((c) => (c.choices as JsonObject[])[0]);
    expect(deltas).toEqual([
      { index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null },
      { index: 0, delta: { content: 'Hello' }, logprobs: null, finish_reason: null },
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'toolu_9',
              type: 'function',
              function: { name: 'weather', arguments: '' },
            },
          ],
        },
        logprobs: null,
        finish_reason: null,
      },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] },
        logprobs: null,
        finish_reason: null,
      },
      {
        index: 0,
        delta: { tool_calls: [{ index: 0, function: { arguments: '"Rome"}' } }] },
        logprobs: null,
        finish_reason: null,
      },
      { index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' },
    ]);
    expect(conv.usage()).toEqual({
      promptTokens: 125,
      completionTokens: 15,
      cachedTokens: 100,
      cacheCreationTokens: 0,
    });
    expect(conv.end()).toEqual([
      {
        id: 'chatcmpl-req1',
        object: 'chat.completion.chunk',
        created: 1_700_000_000,
        model: ctx.model,
        choices: [],
        usage: {
          prompt_tokens: 125,
          completion_tokens: 15,
          total_tokens: 140,
          prompt_tokens_details: { cached_tokens: 100 },
        },
      },
    ]);
    expect(conv.failure()).toBeUndefined();
  });

  it("turns an in-stream error event into a failure with the type's status", () => {
    const conv = ANTHROPIC_ADAPTOR.stream(ctx);
    conv.event({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    expect(conv.failure()).toEqual({
      status: 529,
      info: { message: 'Overloaded', type: 'overloaded_error', code: 'overloaded_error' },
    });
    expect(conv.usage()).toBeUndefined();
    expect(conv.end()).toEqual([]);
  });

  it('streams thinking deltas as reasoning_content', () => {
    const conv = ANTHROPIC_ADAPTOR.stream(ctx);
    const [chunk] = conv.event({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'thinking_delta', thinking: 'hmm' },
    });
    expect((chunk!.choices as JsonObject[])[0]!.delta).toEqual({ reasoning_content: 'hmm' });
  });
});

describe('Anthropic adaptor: errors', () => {
  it('reads the documented error body', () => {
    expect(
      ANTHROPIC_ADAPTOR.error(
        401,
        '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}',
      ),
    ).toEqual({
      message: 'invalid x-api-key',
      type: 'authentication_error',
      code: 'authentication_error',
    });
  });

  it('keeps a non-JSON body as the message', () => {
    expect(ANTHROPIC_ADAPTOR.error(502, '<html>Bad gateway</html>')).toEqual({
      message: '<html>Bad gateway</html>',
      type: '',
      code: '',
    });
  });
});
