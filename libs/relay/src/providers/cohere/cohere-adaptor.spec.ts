import type { JsonObject } from '../../openai/request-body';
import { SseFramer, eventObject } from '../framing';
import { COHERE_ADAPTOR } from './cohere-adaptor';
import { bodyOf, wireChannel } from '../testing-fixtures';

const channel = wireChannel(34, { baseUrl: 'https://api.cohere.com', key: 'co-key' });
const ctx = { id: 'chatcmpl-r2', model: 'command-a', created: 1700000000 };
const NOW = new Date(0);
const choiceOf = (body: JsonObject) => (body.choices as JsonObject[])[0]!;

describe('COHERE_ADAPTOR.request', () => {
  it('posts chat to /v2/chat with the key as a Bearer token and the stream flag in the body', () => {
    const req = COHERE_ADAPTOR.request(
      'chat',
      { model: 'command', messages: [{ role: 'user', content: 'Hello world!' }], stream: true },
      channel,
      'command-a-03-2025',
      true,
      NOW,
    );
    expect(req).toMatchObject({
      method: 'POST',
      origin: 'https://api.cohere.com',
      path: '/v2/chat',
    });
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      accept: 'text/event-stream',
      authorization: 'Bearer co-key',
    });
    expect(bodyOf(req.body)).toEqual({
      model: 'command-a-03-2025',
      messages: [{ role: 'user', content: 'Hello world!' }],
      stream: true,
    });
  });

  it('maps roles, tool calls and results, tools, knobs and a JSON schema', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    const req = COHERE_ADAPTOR.request(
      'chat',
      {
        messages: [
          { role: 'system', content: 'You are a weather bot.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: "What's the weather in Toronto?" },
              { type: 'image_url', image_url: { url: 'https://x.invalid/a.png', detail: 'low' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'get_weather_1byjy32y4hvq',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
              },
            ],
          },
          {
            role: 'tool',
            tool_call_id: 'get_weather_1byjy32y4hvq',
            content: [{ type: 'text', text: '{"temperature": "20C"}' }],
          },
          { role: 'assistant', content: 'It is 20C.' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'get_weather', parameters: { type: 'object', properties: {} } },
          },
          { type: 'function', function: { name: 'get_time', parameters: { type: 'object' } } },
        ],
        tool_choice: { type: 'function', function: { name: 'get_weather' } },
        max_tokens: 300,
        temperature: 0.3,
        top_p: 0.75,
        stop: ['END'],
        seed: 7,
        frequency_penalty: 0.2,
        presence_penalty: 0.4,
        response_format: { type: 'json_schema', json_schema: { name: 'w', schema } },
      },
      channel,
      'command-a',
      false,
      NOW,
    );
    const body = bodyOf(req.body);
    expect(req.headers.accept).toBe('application/json');
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a weather bot.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: "What's the weather in Toronto?" },
          { type: 'image_url', image_url: { url: 'https://x.invalid/a.png' } },
        ],
      },
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'get_weather_1byjy32y4hvq',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
          },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'get_weather_1byjy32y4hvq',
        content: '{"temperature": "20C"}',
      },
      { role: 'assistant', content: 'It is 20C.' },
    ]);
    // A named tool choice keeps only that tool and requires a call.
    expect((body.tools as JsonObject[]).map((t) => (t.function as JsonObject).name)).toEqual([
      'get_weather',
    ]);
    expect(body).toMatchObject({
      stream: false,
      tool_choice: 'REQUIRED',
      max_tokens: 300,
      temperature: 0.3,
      p: 0.75,
      stop_sequences: ['END'],
      seed: 7,
      frequency_penalty: 0.2,
      presence_penalty: 0.4,
      response_format: { type: 'json_object', json_schema: schema },
    });
  });

  it('maps tool_choice none and required, and json_object', () => {
    const tools = [{ type: 'function', function: { name: 'f', parameters: {} } }];
    const none = bodyOf(
      COHERE_ADAPTOR.request(
        'chat',
        { messages: [], tools, tool_choice: 'none', response_format: { type: 'json_object' } },
        channel,
        'm',
        false,
        NOW,
      ).body,
    );
    expect(none).toMatchObject({ tool_choice: 'NONE', response_format: { type: 'json_object' } });
    const required = bodyOf(
      COHERE_ADAPTOR.request(
        'chat',
        { messages: [], tools, tool_choice: 'required' },
        channel,
        'm',
        false,
        NOW,
      ).body,
    );
    expect(required.tool_choice).toBe('REQUIRED');
  });

  it('posts rerank to /v2/rerank with string documents', () => {
    const req = COHERE_ADAPTOR.request(
      'rerank',
      {
        model: 'rerank',
        query: 'What is the capital of the United States?',
        documents: ['Carson City is the capital city of Nevada.', { text: 'Washington, D.C.' }],
        top_n: 2,
        return_documents: true,
      },
      channel,
      'rerank-v3.5',
      false,
      NOW,
    );
    expect(req.path).toBe('/v2/rerank');
    expect(bodyOf(req.body)).toEqual({
      model: 'rerank-v3.5',
      query: 'What is the capital of the United States?',
      documents: ['Carson City is the capital city of Nevada.', 'Washington, D.C.'],
      top_n: 2,
    });
  });

  it('posts embeddings to /v2/embed with an input type and float vectors', () => {
    const req = COHERE_ADAPTOR.request(
      'embeddings',
      { input: 'hello', dimensions: 256 },
      channel,
      'embed-v4.0',
      false,
      NOW,
    );
    expect(req.path).toBe('/v2/embed');
    expect(bodyOf(req.body)).toEqual({
      model: 'embed-v4.0',
      texts: ['hello'],
      input_type: 'search_document',
      embedding_types: ['float'],
      output_dimension: 256,
    });
  });
});

describe('COHERE_ADAPTOR.response', () => {
  it('converts the documented chat answer, counting tokens over billed units', () => {
    const answer = COHERE_ADAPTOR.response(
      'chat',
      {
        id: 'c14c80c3-18eb-4519-9460-6c92edd8cfb4',
        finish_reason: 'COMPLETE',
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'LLMs stand for Large Language Models.' }],
        },
        usage: {
          billed_units: { input_tokens: 17, output_tokens: 12 },
          tokens: { input_tokens: 215, output_tokens: 12 },
        },
      },
      ctx,
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r2',
        object: 'chat.completion',
        created: 1700000000,
        model: 'command-a',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'LLMs stand for Large Language Models.' },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 215, completion_tokens: 12, total_tokens: 227 },
      },
      usage: { promptTokens: 215, completionTokens: 12, cachedTokens: 0 },
    });
  });

  it('converts a tool call answer (tool plan as reasoning) and billed units alone', () => {
    const answer = COHERE_ADAPTOR.response(
      'chat',
      {
        id: 'x',
        finish_reason: 'TOOL_CALL',
        message: {
          role: 'assistant',
          tool_plan: 'I will look up the weather in Toronto.',
          tool_calls: [
            {
              id: 'get_weather_1byjy32y4hvq',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
            },
          ],
        },
        usage: { billed_units: { input_tokens: 37, output_tokens: 28 } },
      },
      ctx,
    );
    if (!answer.ok) throw new Error('expected ok');
    expect(choiceOf(answer.body)).toEqual({
      index: 0,
      message: {
        role: 'assistant',
        content: '',
        reasoning_content: 'I will look up the weather in Toronto.',
        tool_calls: [
          {
            id: 'get_weather_1byjy32y4hvq',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"location":"Toronto"}' },
          },
        ],
      },
      logprobs: null,
      finish_reason: 'tool_calls',
    });
    expect(answer.usage).toEqual({ promptTokens: 37, completionTokens: 28, cachedTokens: 0 });
  });

  it('maps MAX_TOKENS to length, thinking blocks to reasoning, and ERROR to a failure', () => {
    const long = COHERE_ADAPTOR.response(
      'chat',
      {
        finish_reason: 'MAX_TOKENS',
        message: {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'Let me think.' },
            { type: 'text', text: 'Part one' },
            { type: 'text', text: ', part two' },
          ],
        },
      },
      ctx,
    );
    if (!long.ok) throw new Error('expected ok');
    expect(choiceOf(long.body)).toMatchObject({
      message: { content: 'Part one, part two', reasoning_content: 'Let me think.' },
      finish_reason: 'length',
    });
    expect(long.usage).toBeUndefined();
    expect(COHERE_ADAPTOR.response('chat', { finish_reason: 'ERROR', message: {} }, ctx)).toEqual({
      ok: false,
      failure: {
        status: 500,
        info: {
          message: 'Cohere ended the generation with ERROR',
          type: 'upstream_error',
          code: '',
        },
      },
    });
  });

  it('converts the documented rerank answer, search units as prompt tokens', () => {
    const answer = COHERE_ADAPTOR.response(
      'rerank',
      {
        results: [
          { index: 3, relevance_score: 0.999071 },
          { index: 4, relevance_score: 0.7867867 },
        ],
        id: '07734bd2-2473-4f07-94e1-0d9f0e6843cf',
        meta: { api_version: { version: '2' }, billed_units: { search_units: 1 } },
      },
      { ...ctx, model: 'rerank-v3.5' },
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        model: 'rerank-v3.5',
        results: [
          { index: 3, relevance_score: 0.999071 },
          { index: 4, relevance_score: 0.7867867 },
        ],
        usage: { prompt_tokens: 1, total_tokens: 1 },
      },
      usage: { promptTokens: 1, completionTokens: 0, cachedTokens: 0 },
    });
  });

  it('prefers rerank tokens when Cohere reports them, and keeps returned documents', () => {
    const answer = COHERE_ADAPTOR.response(
      'rerank',
      {
        results: [{ index: 0, relevance_score: 0.5, document: { text: 'doc' } }],
        meta: { billed_units: { search_units: 1 }, tokens: { input_tokens: 321 } },
      },
      ctx,
    );
    expect(answer.ok && answer.body.results).toEqual([
      { index: 0, relevance_score: 0.5, document: { text: 'doc' } },
    ]);
    expect(answer.ok && answer.usage?.promptTokens).toBe(321);
  });

  it('converts an embed answer with billed input tokens', () => {
    const answer = COHERE_ADAPTOR.response(
      'embeddings',
      {
        id: 'e',
        embeddings: { float: [[0.1, -0.2]] },
        texts: ['hello'],
        meta: { billed_units: { input_tokens: 2 } },
      },
      ctx,
    );
    expect(answer.ok && answer.body).toEqual({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.1, -0.2] }],
      model: 'command-a',
      usage: { prompt_tokens: 2, total_tokens: 2 },
    });
  });
});

describe('COHERE_ADAPTOR.stream', () => {
  const sse = (events: Array<[string, JsonObject]>) =>
    events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join('');
  const feed = (text: string) => {
    const converter = COHERE_ADAPTOR.stream(ctx);
    const framer = new SseFramer();
    const per: JsonObject[][] = [];
    for (const event of [...framer.push(Buffer.from(text)), ...framer.end()]) {
      per.push(converter.event(eventObject(event)!, event.name));
    }
    return { converter, per, tail: converter.end() };
  };
  const deltas = (chunks: JsonObject[]) => chunks.map((c) => choiceOf(c).delta);
  const usage = {
    billed_units: { input_tokens: 3, output_tokens: 9 },
    tokens: { input_tokens: 69, output_tokens: 9 },
  };

  it('converts a text stream event by event, with usage from message-end', () => {
    const { converter, per, tail } = feed(
      sse([
        [
          'message-start',
          {
            id: '29f14a5a',
            type: 'message-start',
            delta: {
              message: {
                role: 'assistant',
                content: [],
                tool_plan: '',
                tool_calls: [],
                citations: [],
              },
            },
          },
        ],
        [
          'content-start',
          {
            type: 'content-start',
            index: 0,
            delta: { message: { content: { type: 'text', text: '' } } },
          },
        ],
        [
          'content-delta',
          { type: 'content-delta', index: 0, delta: { message: { content: { text: 'Hello' } } } },
        ],
        [
          'content-delta',
          { type: 'content-delta', index: 0, delta: { message: { content: { text: ' world' } } } },
        ],
        ['content-end', { type: 'content-end', index: 0 }],
        ['message-end', { type: 'message-end', delta: { finish_reason: 'COMPLETE', usage } }],
      ]),
    );
    expect(per.map(deltas)).toEqual([
      [{ role: 'assistant', content: '' }],
      [],
      [{ content: 'Hello' }],
      [{ content: ' world' }],
      [],
      [{}],
    ]);
    expect(choiceOf(per[5]![0]!).finish_reason).toBe('stop');
    expect(per[0]![0]).toMatchObject({
      id: 'chatcmpl-r2',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'command-a',
    });
    expect(tail).toEqual([
      {
        id: 'chatcmpl-r2',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: 'command-a',
        choices: [],
        usage: { prompt_tokens: 69, completion_tokens: 9, total_tokens: 78 },
      },
    ]);
    expect(converter.usage()).toEqual({ promptTokens: 69, completionTokens: 9, cachedTokens: 0 });
    expect(converter.failure()).toBeUndefined();
  });

  it('converts a tool plan and a streamed tool call', () => {
    const { per } = feed(
      sse([
        ['message-start', { type: 'message-start', delta: { message: { role: 'assistant' } } }],
        [
          'tool-plan-delta',
          { type: 'tool-plan-delta', delta: { message: { tool_plan: 'I will' } } },
        ],
        [
          'tool-call-start',
          {
            type: 'tool-call-start',
            index: 0,
            delta: {
              message: {
                tool_calls: {
                  id: 'get_weather_nsz5zm3w56q3',
                  type: 'function',
                  function: { name: 'get_weather', arguments: '' },
                },
              },
            },
          },
        ],
        [
          'tool-call-delta',
          {
            type: 'tool-call-delta',
            index: 0,
            delta: { message: { tool_calls: { function: { arguments: '{"location":' } } } },
          },
        ],
        [
          'tool-call-delta',
          {
            type: 'tool-call-delta',
            index: 0,
            delta: { message: { tool_calls: { function: { arguments: '"Madrid"}' } } } },
          },
        ],
        ['tool-call-end', { type: 'tool-call-end', index: 0 }],
        ['message-end', { type: 'message-end', delta: { finish_reason: 'TOOL_CALL', usage } }],
      ]),
    );
    expect(per.map(deltas)).toEqual([
      [{ role: 'assistant', content: '' }],
      [{ reasoning_content: 'I will' }],
      [
        {
          tool_calls: [
            {
              index: 0,
              id: 'get_weather_nsz5zm3w56q3',
              type: 'function',
              function: { name: 'get_weather', arguments: '' },
            },
          ],
        },
      ],
      [{ tool_calls: [{ index: 0, function: { arguments: '{"location":' } }] }],
      [{ tool_calls: [{ index: 0, function: { arguments: '"Madrid"}' } }] }],
      [],
      [{}],
    ]);
    expect(choiceOf(per[6]![0]!).finish_reason).toBe('tool_calls');
  });

  it('reads the type from data when there is no event name, and MAX_TOKENS as length', () => {
    const converter = COHERE_ADAPTOR.stream(ctx);
    const first = converter.event({
      type: 'content-delta',
      delta: { message: { content: { text: 'Hi' } } },
    });
    // No message-start seen: the role chunk still comes first.
    expect(deltas(first)).toEqual([{ role: 'assistant', content: '' }, { content: 'Hi' }]);
    const end = converter.event({ type: 'message-end', delta: { finish_reason: 'MAX_TOKENS' } });
    expect(choiceOf(end[0]!).finish_reason).toBe('length');
    expect(converter.end()).toEqual([]);
    expect(converter.usage()).toBeUndefined();
  });

  it('reports a message-end with ERROR as the failure, keeping its usage', () => {
    const converter = COHERE_ADAPTOR.stream(ctx);
    converter.event(
      { type: 'message-start', delta: { message: { role: 'assistant' } } },
      'message-start',
    );
    const out = converter.event(
      { type: 'message-end', delta: { finish_reason: 'ERROR', error: 'internal failure', usage } },
      'message-end',
    );
    expect(out).toEqual([]);
    expect(converter.failure()).toEqual({
      status: 500,
      info: { message: 'internal failure', type: 'upstream_error', code: '' },
    });
    expect(converter.usage()?.promptTokens).toBe(69);
  });
});

describe('COHERE_ADAPTOR.error', () => {
  it('reads Cohere error bodies and types them by status', () => {
    expect(
      COHERE_ADAPTOR.error(
        401,
        '{"id":"6a6b1b5c-0d39-4f3c-8c1a-1d7f2f1b3c4d","message":"invalid api token"}',
      ),
    ).toEqual({ message: 'invalid api token', type: 'authentication_error', code: '' });
    expect(
      COHERE_ADAPTOR.error(
        429,
        '{"message":"You are using a Trial key, which is limited to 10 API calls / minute."}',
      ),
    ).toEqual({
      message: 'You are using a Trial key, which is limited to 10 API calls / minute.',
      type: 'rate_limit_error',
      code: '',
    });
    expect(COHERE_ADAPTOR.error(402, '{"message":"Please add a payment method"}').type).toBe(
      'insufficient_quota',
    );
  });

  it('keeps non-JSON text and names an empty body', () => {
    expect(COHERE_ADAPTOR.error(503, 'upstream connect error')).toEqual({
      message: 'upstream connect error',
      type: 'upstream_error',
      code: '',
    });
    expect(COHERE_ADAPTOR.error(500, '  ').message).toBe('Cohere answered HTTP 500');
  });
});
