import type { JsonObject } from '../../openai/request-body';
import { geminiChatBody } from '../gemini/gemini-request';
import { ANTHROPIC_ADAPTOR } from './anthropic-adaptor';
import { ANTHROPIC_INGRESS } from './anthropic-ingress';
import { openAiRequestOfAnthropic } from './anthropic-request';

const ctx = { id: 'chatcmpl-abc', model: 'claude-sonnet-4', created: 1_700_000_000 };

/** Parses the SSE text an encoder wrote into [event, data] pairs. */
function events(sse: string): Array<[string, JsonObject]> {
  return sse
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return [eventLine!.slice('event: '.length), JSON.parse(dataLine!.slice('data: '.length))];
    });
}

describe('Anthropic ingress: Messages request → OpenAI request', () => {
  it('converts the documented tool-use conversation', () => {
    const openai = ANTHROPIC_INGRESS.toOpenAi(
      {
        model: 'claude-sonnet-4',
        max_tokens: 1024,
        system: [{ type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } }],
        stream: true,
        tools: [
          {
            name: 'get_weather',
            description: 'Get the weather',
            input_schema: { type: 'object', properties: { location: { type: 'string' } } },
          },
          { type: 'web_search_20250305', name: 'web_search' },
        ],
        tool_choice: { type: 'tool', name: 'get_weather' },
        messages: [
          { role: 'user', content: 'Weather in SF?' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Let me check.' },
              { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { location: 'SF' } },
            ],
          },
          {
            role: 'user',
            content: [
              {
                type: 'tool_result',
                tool_use_id: 'toolu_1',
                content: [{ type: 'text', text: '15C' }],
              },
              { type: 'text', text: 'And tomorrow?' },
              { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'AAAA' } },
            ],
          },
        ],
      },
      {},
    );
    expect(openai).toEqual({
      model: 'claude-sonnet-4',
      max_tokens: 1024,
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Weather in SF?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            {
              id: 'toolu_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"SF"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'toolu_1', content: '15C' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'And tomorrow?' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,AAAA' } },
          ],
        },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Get the weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
  });

  it('says what is missing, as Anthropic does', () => {
    expect(ANTHROPIC_INGRESS.toOpenAi({ messages: [], max_tokens: 5 }, {})).toBe(
      'model: Field required',
    );
    expect(ANTHROPIC_INGRESS.toOpenAi({ model: 'c', max_tokens: 5 }, {})).toBe(
      'messages: Field required',
    );
    expect(ANTHROPIC_INGRESS.toOpenAi({ model: 'c', messages: [], max_tokens: 0 }, {})).toBe(
      'max_tokens: Input should be greater than or equal to 1',
    );
  });

  it('leaves an absent max_tokens to the channel (claude.default_max_tokens)', () => {
    const hub = ANTHROPIC_INGRESS.toOpenAi({ model: 'c', messages: [] }, {});
    expect(hub).toMatchObject({ model: 'c', messages: [] });
    expect(hub).not.toHaveProperty('max_tokens');
  });

  it('round-trips through the Anthropic adaptor without losing the conversation', () => {
    const original = {
      model: 'claude-x',
      max_tokens: 64,
      system: 'Sys',
      messages: [
        { role: 'user', content: 'Q' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'R' }] },
      ],
    };
    const hub = ANTHROPIC_INGRESS.toOpenAi(original, {}) as JsonObject;
    const back = JSON.parse(
      ANTHROPIC_ADAPTOR.request(
        'chat',
        hub,
        {
          type: 14,
          baseUrl: 'http://x',
          key: 'k',
          other: '',
          openaiOrganization: '',
          modelMapping: {},
        },
        'claude-x',
        false,
        new Date(),
      ).body.toString(),
    ) as JsonObject;
    expect(back).toEqual({
      model: 'claude-x',
      max_tokens: 64,
      system: [{ type: 'text', text: 'Sys' }],
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Q' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'R' }] },
      ],
    });
  });
});

describe('Anthropic ingress: OpenAI answers → Messages answers', () => {
  it('converts a completion with a tool call and splits the cache out of input_tokens', () => {
    const answer = ANTHROPIC_INGRESS.fromOpenAi(
      {
        choices: [
          {
            message: {
              role: 'assistant',
              content: 'On it.',
              tool_calls: [
                { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"x":2}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
      { promptTokens: 100, completionTokens: 7, cachedTokens: 60, cacheCreationTokens: 10 },
      ctx,
    );
    expect(answer).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4',
      content: [
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { x: 2 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 30,
        cache_creation_input_tokens: 10,
        cache_read_input_tokens: 60,
        output_tokens: 7,
      },
    });
  });

  it('streams OpenAI chunks as the Messages event sequence', () => {
    const encoder = ANTHROPIC_INGRESS.stream(ctx);
    const chunk = (delta: JsonObject, finish: string | null = null) => ({
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    let sse = encoder.chunk(chunk({ role: 'assistant', content: '' }));
    sse += encoder.chunk(chunk({ content: 'Hel' }));
    sse += encoder.chunk(chunk({ content: 'lo' }));
    sse += encoder.chunk(
      chunk({
        tool_calls: [
          { index: 0, id: 'call_7', type: 'function', function: { name: 'f', arguments: '' } },
        ],
      }),
    );
    sse += encoder.chunk(chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a":1}' } }] }));
    sse += encoder.chunk(chunk({}, 'tool_calls'));
    sse += encoder.end({ promptTokens: 12, completionTokens: 5, cachedTokens: 0 });
    expect(events(sse).map(([name, data]) => [name, data.type === name])).toEqual([
      ['message_start', true],
      ['content_block_start', true],
      ['content_block_delta', true],
      ['content_block_delta', true],
      ['content_block_stop', true],
      ['content_block_start', true],
      ['content_block_delta', true],
      ['content_block_stop', true],
      ['message_delta', true],
      ['message_stop', true],
    ]);
    const parsed = events(sse).map(([, data]) => data);
    expect(parsed[1]).toEqual({
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    });
    expect(parsed[3]).toEqual({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: 'lo' },
    });
    expect(parsed[5]).toEqual({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'call_7', name: 'f', input: {} },
    });
    expect(parsed[6]).toEqual({
      type: 'content_block_delta',
      index: 1,
      delta: { type: 'input_json_delta', partial_json: '{"a":1}' },
    });
    expect(parsed[8]).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 12,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
        output_tokens: 5,
      },
    });
  });

  it("answers errors in Anthropic's shape", () => {
    expect(ANTHROPIC_INGRESS.errorBody(429, 'slow down', 'rate_limit_error', null)).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow down' },
    });
    expect(ANTHROPIC_INGRESS.errorBody(401, 'bad key', 'authentication_error', null)).toMatchObject(
      {
        error: { type: 'authentication_error' },
      },
    );
    // Statuses Anthropic does not list: its invalid_request_error for a 4xx, api_error for a 5xx.
    const typeOf = (status: number) =>
      (ANTHROPIC_INGRESS.errorBody(status, 'x', 'invalid_request_error', null).error as JsonObject)
        .type;
    expect([405, 414, 431, 500, 502].map(typeOf)).toEqual([
      'invalid_request_error',
      'invalid_request_error',
      'invalid_request_error',
      'api_error',
      'api_error',
    ]);
  });
});

describe("an Anthropic client's failed tool result", () => {
  it('reaches the OpenAI hub (and so Gemini) as a tool message that says it failed', () => {
    const hub = openAiRequestOfAnthropic({
      model: 'm',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'tu_1', name: 'weather', input: {} }],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'tu_1', content: 'timeout', is_error: true },
          ],
        },
      ],
    }) as JsonObject;
    expect((hub.messages as JsonObject[])[2]).toEqual({
      role: 'tool',
      tool_call_id: 'tu_1',
      content: 'Error: timeout',
    });
    const gemini = JSON.stringify(geminiChatBody(hub, 'gemini-2.5-pro'));
    expect(gemini).toContain('Error: timeout');
  });
});
