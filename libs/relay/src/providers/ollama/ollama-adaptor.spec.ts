import type { JsonObject } from '../../openai/request-body';
import { NdjsonFramer } from '../framing';
import { OLLAMA_ADAPTOR } from './ollama-adaptor';
import { bodyOf, convertStream, deltas, wireChannel } from '../testing-fixtures';

const channel = (key = '') => wireChannel(4, { baseUrl: 'http://127.0.0.1:11434', key });
const ctx = { id: 'chatcmpl-r1', model: 'llama3.2', created: 1700000000 };
const NOW = new Date(0);

describe('OLLAMA_ADAPTOR.request', () => {
  it('posts a plain chat to /api/chat with stream spelled out and no auth without a key', () => {
    const req = OLLAMA_ADAPTOR.request(
      'chat',
      { model: 'llama', messages: [{ role: 'user', content: 'Why is the sky blue?' }] },
      channel(),
      'llama3.2',
      false,
      NOW,
    );
    expect(req).toMatchObject({
      method: 'POST',
      origin: 'http://127.0.0.1:11434',
      path: '/api/chat',
    });
    expect(req.headers).toEqual({ 'content-type': 'application/json' });
    expect(bodyOf(req.body)).toEqual({
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
      stream: false,
    });
  });

  it('sends the key as a Bearer token and asks for NDJSON when streaming', () => {
    const req = OLLAMA_ADAPTOR.request(
      'chat',
      { messages: [] },
      channel('sk-proxy'),
      'm',
      true,
      NOW,
    );
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      accept: 'application/x-ndjson',
      authorization: 'Bearer sk-proxy',
    });
    expect(bodyOf(req.body).stream).toBe(true);
  });

  it('keeps a base URL path prefix (Ollama behind a proxy)', () => {
    const ch = { ...channel(), baseUrl: 'https://gw.example/ollama' };
    const req = OLLAMA_ADAPTOR.request('chat', { messages: [] }, ch, 'm', false, NOW);
    expect([req.origin, req.path]).toEqual(['https://gw.example', '/ollama/api/chat']);
  });

  it('maps sampling options, stop, json mode, images, tools and tool results', () => {
    const req = OLLAMA_ADAPTOR.request(
      'chat',
      {
        messages: [
          { role: 'developer', content: 'Be terse.' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this image?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_abc',
                type: 'function',
                function: { name: 'get_weather', arguments: '{"city":"Toronto"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_abc', content: '11 degrees celsius' },
        ],
        tools: [
          {
            type: 'function',
            function: {
              name: 'get_weather',
              description: 'Weather of a city',
              parameters: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        ],
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 100,
        max_completion_tokens: 64,
        stop: '###',
        seed: 42,
        frequency_penalty: 0.5,
        presence_penalty: 0.1,
        response_format: { type: 'json_object' },
      },
      channel(),
      'llava',
      false,
      NOW,
    );
    const body = bodyOf(req.body);
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be terse.' },
      { role: 'user', content: 'What is in this image?', images: ['iVBORw0KGgo='] },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ function: { name: 'get_weather', arguments: { city: 'Toronto' } } }],
      },
      { role: 'tool', content: '11 degrees celsius', tool_name: 'get_weather' },
    ]);
    expect(body.options).toEqual({
      temperature: 0.2,
      top_p: 0.9,
      num_predict: 64, // max_completion_tokens wins over the legacy max_tokens
      seed: 42,
      frequency_penalty: 0.5,
      presence_penalty: 0.1,
      stop: ['###'],
    });
    expect(body.format).toBe('json');
    expect((body.tools as JsonObject[])[0]).toMatchObject({ function: { name: 'get_weather' } });
  });

  it('passes a json_schema response format as the schema itself', () => {
    const schema = { type: 'object', properties: { age: { type: 'integer' } }, required: ['age'] };
    const req = OLLAMA_ADAPTOR.request(
      'chat',
      {
        messages: [],
        response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
      },
      channel(),
      'm',
      false,
      NOW,
    );
    expect(bodyOf(req.body).format).toEqual(schema);
    expect(bodyOf(req.body).options).toBeUndefined();
  });

  it('posts embeddings to /api/embed with the input as given', () => {
    const req = OLLAMA_ADAPTOR.request(
      'embeddings',
      { model: 'e', input: ['Why is the sky blue?', 'Why is the grass green?'] },
      channel(),
      'all-minilm',
      false,
      NOW,
    );
    expect(req.path).toBe('/api/embed');
    expect(bodyOf(req.body)).toEqual({
      model: 'all-minilm',
      input: ['Why is the sky blue?', 'Why is the grass green?'],
    });
  });

  it('refuses an endpoint it does not convert', () => {
    expect(OLLAMA_ADAPTOR.endpoints.has('rerank')).toBe(false);
    expect(() => OLLAMA_ADAPTOR.request('rerank', {}, channel(), 'm', false, NOW)).toThrow(
      /rerank/,
    );
  });
});

describe('OLLAMA_ADAPTOR.response', () => {
  it('converts the documented non-stream chat answer with its counts', () => {
    const answer = OLLAMA_ADAPTOR.response(
      'chat',
      {
        model: 'llama3.2',
        created_at: '2023-12-12T14:13:43.416799Z',
        message: { role: 'assistant', content: 'Hello! How are you today?' },
        done: true,
        done_reason: 'stop',
        total_duration: 5191566416,
        load_duration: 2154458,
        prompt_eval_count: 26,
        prompt_eval_duration: 383809000,
        eval_count: 298,
        eval_duration: 4799921000,
      },
      ctx,
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1700000000,
        model: 'llama3.2',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hello! How are you today?' },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 26, completion_tokens: 298, total_tokens: 324 },
      },
      usage: { promptTokens: 26, completionTokens: 298, cachedTokens: 0 },
    });
  });

  it('maps tool calls (numbered ids, JSON-string arguments), thinking and done_reason length', () => {
    const tools = OLLAMA_ADAPTOR.response(
      'chat',
      {
        message: {
          role: 'assistant',
          content: '',
          thinking: 'The user wants the weather.',
          tool_calls: [
            { function: { name: 'get_weather', arguments: { city: 'Tokyo' } } },
            { function: { name: 'get_time', arguments: { zone: 'JST' } } },
          ],
        },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: 50,
        eval_count: 20,
      },
      ctx,
    );
    if (!tools.ok) throw new Error('expected ok');
    const choice = (tools.body.choices as JsonObject[])[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message).toEqual({
      role: 'assistant',
      content: '',
      reasoning_content: 'The user wants the weather.',
      tool_calls: [
        {
          id: 'call_0',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"city":"Tokyo"}' },
        },
        {
          id: 'call_1',
          type: 'function',
          function: { name: 'get_time', arguments: '{"zone":"JST"}' },
        },
      ],
    });
    const long = OLLAMA_ADAPTOR.response(
      'chat',
      { message: { role: 'assistant', content: 'cut' }, done: true, done_reason: 'length' },
      ctx,
    );
    expect(long.ok && (long.body.choices as JsonObject[])[0]!.finish_reason).toBe('length');
    expect(long.ok && long.usage).toBeUndefined();
  });

  it('turns an error in a 2xx body into a failure', () => {
    expect(OLLAMA_ADAPTOR.response('chat', { error: 'unexpected EOF' }, ctx)).toEqual({
      ok: false,
      failure: {
        status: 500,
        info: { message: 'unexpected EOF', type: 'upstream_error', code: '' },
      },
    });
  });

  it('converts the documented /api/embed answer with prompt_eval_count as usage', () => {
    const answer = OLLAMA_ADAPTOR.response(
      'embeddings',
      {
        model: 'all-minilm',
        embeddings: [
          [0.010071029, -0.0017594862],
          [-0.0098027075, 0.06042469],
        ],
        total_duration: 14143917,
        load_duration: 1019500,
        prompt_eval_count: 8,
      },
      { ...ctx, model: 'all-minilm' },
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        object: 'list',
        data: [
          { object: 'embedding', index: 0, embedding: [0.010071029, -0.0017594862] },
          { object: 'embedding', index: 1, embedding: [-0.0098027075, 0.06042469] },
        ],
        model: 'all-minilm',
        usage: { prompt_tokens: 8, total_tokens: 8 },
      },
      usage: { promptTokens: 8, completionTokens: 0, cachedTokens: 0 },
    });
  });
});

describe('OLLAMA_ADAPTOR.stream', () => {
  const feed = (lines: string[]) => {
    const converter = OLLAMA_ADAPTOR.stream(ctx);
    // Cut the bytes mid-line to show the framer and converter only see whole lines.
    const raw = lines.map((l) => `${l}\n`).join('');
    return { converter, chunks: convertStream(converter, new NdjsonFramer(), raw, 37) };
  };

  it('converts the documented stream line by line, with usage from the done object', () => {
    const { converter, chunks } = feed([
      '{"model":"llama3.2","created_at":"2023-08-04T08:52:19.385406455-07:00","message":{"role":"assistant","content":"The"},"done":false}',
      '{"model":"llama3.2","created_at":"2023-08-04T08:52:19.4Z","message":{"role":"assistant","content":" sky"},"done":false}',
      '{"model":"llama3.2","created_at":"2023-08-04T19:22:45.499127Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","total_duration":4883583458,"load_duration":1334875,"prompt_eval_count":26,"prompt_eval_duration":342546000,"eval_count":282,"eval_duration":4535599000}',
    ]);
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { content: 'The' },
      { content: ' sky' },
      {},
      { usage: { prompt_tokens: 26, completion_tokens: 282, total_tokens: 308 } },
    ]);
    expect(chunks[0]).toEqual({
      id: 'chatcmpl-r1',
      object: 'chat.completion.chunk',
      created: 1700000000,
      model: 'llama3.2',
      choices: [
        {
          index: 0,
          delta: { role: 'assistant', content: '' },
          logprobs: null,
          finish_reason: null,
        },
      ],
    });
    expect((chunks[3]!.choices as JsonObject[])[0]!.finish_reason).toBe('stop');
    expect(chunks[4]).toMatchObject({
      id: 'chatcmpl-r1',
      object: 'chat.completion.chunk',
      choices: [],
    });
    expect(converter.usage()).toEqual({ promptTokens: 26, completionTokens: 282, cachedTokens: 0 });
    expect(converter.failure()).toBeUndefined();
  });

  it('streams thinking and a whole tool call, finishing with tool_calls', () => {
    const { chunks } = feed([
      '{"message":{"role":"assistant","content":"","thinking":"Need weather."},"done":false}',
      '{"message":{"role":"assistant","content":"","tool_calls":[{"function":{"name":"get_weather","arguments":{"city":"Paris"}}}]},"done":false}',
      '{"message":{"role":"assistant","content":""},"done":true,"done_reason":"stop","prompt_eval_count":12,"eval_count":9}',
    ]);
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'Need weather.' },
      {
        tool_calls: [
          {
            index: 0,
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
          },
        ],
      },
      {},
      { usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } },
    ]);
    expect((chunks[3]!.choices as JsonObject[])[0]!.finish_reason).toBe('tool_calls');
  });

  it('reports an error line as the failure and owes nothing without usage', () => {
    const { converter, chunks } = feed([
      '{"message":{"role":"assistant","content":"Hi"},"done":false}',
      '{"error":"an error was encountered while running the model: unexpected EOF"}',
    ]);
    expect(deltas(chunks)).toEqual([{ role: 'assistant', content: '' }, { content: 'Hi' }]);
    expect(converter.usage()).toBeUndefined();
    expect(converter.failure()).toEqual({
      status: 500,
      info: {
        message: 'an error was encountered while running the model: unexpected EOF',
        type: 'upstream_error',
        code: '',
      },
    });
  });
});

describe('OLLAMA_ADAPTOR.error', () => {
  it('reads the {"error": ...} body and types it by status', () => {
    expect(OLLAMA_ADAPTOR.error(404, '{"error":"model \'llama9\' not found"}')).toEqual({
      message: "model 'llama9' not found",
      type: 'invalid_request_error',
      code: '',
    });
    expect(OLLAMA_ADAPTOR.error(500, '{"error":"llama runner process has terminated"}')).toEqual({
      message: 'llama runner process has terminated',
      type: 'upstream_error',
      code: '',
    });
  });

  it('keeps a proxy text body and names an empty one', () => {
    expect(OLLAMA_ADAPTOR.error(401, 'Unauthorized')).toEqual({
      message: 'Unauthorized',
      type: 'authentication_error',
      code: '',
    });
    expect(OLLAMA_ADAPTOR.error(502, '').message).toBe('Ollama answered HTTP 502');
  });
});
