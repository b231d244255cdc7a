import type { JsonObject } from '../../openai/request-body';
import { SseFramer } from '../framing';
import { DIFY_ADAPTOR } from './dify-adaptor';
import { bodyOf, convertStream, deltas, wireChannel } from '../testing-fixtures';

const channel = (baseUrl = '') => wireChannel(37, { baseUrl, key: 'app-abc' });
const ctx = { id: 'chatcmpl-r1', model: 'dify', created: 1700000000 };
const NOW = new Date(0);

describe('DIFY_ADAPTOR.request', () => {
  it('sends a lone user message as the query, blocking, with the default user', () => {
    const req = DIFY_ADAPTOR.request(
      'chat',
      {
        model: 'dify',
        messages: [{ role: 'user', content: 'What are the specs of the iPhone 13 Pro Max?' }],
      },
      channel(),
      'dify',
      false,
      NOW,
    );
    expect([req.method, req.origin, req.path]).toEqual([
      'POST',
      'https://api.dify.ai',
      '/v1/chat-messages',
    ]);
    expect(req.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer app-abc',
    });
    expect(bodyOf(req.body)).toEqual({
      inputs: {},
      query: 'What are the specs of the iPhone 13 Pro Max?',
      response_mode: 'blocking',
      user: 'tollgate',
    });
  });

  it('folds a longer conversation into a role transcript and sends images as remote files', () => {
    const req = DIFY_ADAPTOR.request(
      'chat',
      {
        messages: [
          { role: 'system', content: 'Be brief.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello!' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is this?' },
              { type: 'image_url', image_url: { url: 'https://cloud.dify.ai/logo/logo-site.png' } },
            ],
          },
        ],
        user: 'abc-123',
      },
      channel('https://dify.example/v1/'),
      'dify',
      true,
      NOW,
    );
    expect([req.origin, req.path]).toEqual(['https://dify.example', '/v1/chat-messages']);
    expect(req.headers.accept).toBe('text/event-stream');
    expect(bodyOf(req.body)).toEqual({
      inputs: {},
      query: 'SYSTEM:\nBe brief.\n\nUSER:\nHi\n\nASSISTANT:\nHello!\n\nUSER:\nWhat is this?',
      response_mode: 'streaming',
      user: 'abc-123',
      files: [
        {
          type: 'image',
          transfer_method: 'remote_url',
          url: 'https://cloud.dify.ai/logo/logo-site.png',
        },
      ],
    });
  });
});

describe('DIFY_ADAPTOR.response', () => {
  it('converts the documented blocking answer with metadata.usage', () => {
    const answer = DIFY_ADAPTOR.response(
      'chat',
      {
        event: 'message',
        task_id: 'c3800678-a077-43df-a102-53f23ed20b88',
        id: '9da23599-e713-473b-982c-4328d4f5c78a',
        message_id: '9da23599-e713-473b-982c-4328d4f5c78a',
        conversation_id: '45701982-8118-4bc5-8e9b-64562b4555f2',
        mode: 'chat',
        answer: 'iPhone 13 Pro Max specs are listed here:...',
        metadata: {
          usage: {
            prompt_tokens: 1033,
            prompt_unit_price: '0.001',
            prompt_price_unit: '0.001',
            prompt_price: '0.0010330',
            completion_tokens: 128,
            completion_unit_price: '0.002',
            completion_price_unit: '0.001',
            completion_price: '0.0002560',
            total_tokens: 1161,
            total_price: '0.0012890',
            currency: 'USD',
            latency: 0.7682376249867957,
          },
          retriever_resources: [],
        },
        created_at: 1705407629,
      },
      ctx,
    );
    expect(answer).toEqual({
      ok: true,
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1700000000,
        model: 'dify',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'iPhone 13 Pro Max specs are listed here:...' },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 1033, completion_tokens: 128, total_tokens: 1161 },
      },
      usage: { promptTokens: 1033, completionTokens: 128, cachedTokens: 0 },
    });
  });

  it('turns a {code, message, status} body into a failure', () => {
    expect(
      DIFY_ADAPTOR.response(
        'chat',
        {
          code: 'app_unavailable',
          message: 'App unavailable, please check your app configurations.',
          status: 400,
        },
        ctx,
      ),
    ).toEqual({
      ok: false,
      failure: {
        status: 400,
        info: {
          message: 'App unavailable, please check your app configurations.',
          type: 'invalid_request_error',
          code: 'app_unavailable',
        },
      },
    });
  });
});

describe('DIFY_ADAPTOR.stream', () => {
  const feed = (lines: object[], extra = '') => {
    const converter = DIFY_ADAPTOR.stream(ctx);
    const raw = lines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join('') + extra;
    return { converter, chunks: convertStream(converter, new SseFramer(), raw, 40) };
  };
  const conv = { conversation_id: '45701982-8118-4bc5-8e9b-64562b4555f2', created_at: 1679586595 };

  it('converts the documented message stream, ignoring pings, with usage from message_end', () => {
    const { converter, chunks } = feed(
      [
        { event: 'message', message_id: '5ad4cb98', ...conv, answer: ' I' },
        { event: 'message', message_id: '5ad4cb98', ...conv, answer: "'m" },
        { event: 'message', message_id: '5ad4cb98', ...conv, answer: ' glad' },
        {
          event: 'message_end',
          id: '5e52ce04-874b-4d27-9045-b3bc80def685',
          ...conv,
          metadata: { usage: { prompt_tokens: 1033, completion_tokens: 135, total_tokens: 1168 } },
        },
      ],
      'event: ping\n\n',
    );
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { content: ' I' },
      { content: "'m" },
      { content: ' glad' },
      {},
      { usage: { prompt_tokens: 1033, completion_tokens: 135, total_tokens: 1168 } },
    ]);
    expect((chunks[4]!.choices as JsonObject[])[0]!.finish_reason).toBe('stop');
    expect(converter.usage()).toEqual({
      promptTokens: 1033,
      completionTokens: 135,
      cachedTokens: 0,
    });
  });

  it('streams agent thoughts as reasoning (only their new part) and agent messages as content', () => {
    const thought = (t: string) => ({
      event: 'agent_thought',
      id: '8dcf3648',
      position: 1,
      thought: t,
      observation: '',
      tool: 'dalle3',
      ...conv,
    });
    const { chunks } = feed([
      thought(''),
      thought('I should draw'),
      thought('I should draw a cat.'),
      { event: 'agent_message', ...conv, answer: 'Here is a cat.' },
      { event: 'message_end', ...conv, metadata: {} },
    ]);
    expect(deltas(chunks)).toEqual([
      { role: 'assistant', content: '' },
      { reasoning_content: 'I should draw' },
      { reasoning_content: ' a cat.' },
      { content: 'Here is a cat.' },
      {},
    ]);
  });

  it('reports an error event as the failure', () => {
    const { converter } = feed([
      {
        event: 'error',
        task_id: 't',
        message_id: 'm',
        status: 400,
        code: 'invalid_param',
        message: 'query is required',
      },
    ]);
    expect(converter.failure()).toEqual({
      status: 400,
      info: { message: 'query is required', type: 'invalid_request_error', code: 'invalid_param' },
    });
    expect(converter.usage()).toBeUndefined();
  });
});

describe('DIFY_ADAPTOR.error', () => {
  it('reads {code, message, status} and types it by status', () => {
    expect(
      DIFY_ADAPTOR.error(
        401,
        '{"code":"unauthorized","message":"Access token is invalid","status":401}',
      ),
    ).toEqual({
      message: 'Access token is invalid',
      type: 'authentication_error',
      code: 'unauthorized',
    });
    expect(DIFY_ADAPTOR.error(502, '<html>bad gateway</html>')).toEqual({
      message: '<html>bad gateway</html>',
      type: 'upstream_error',
      code: '',
    });
  });
});
