import type { JsonObject } from '../../openai/request-body';
import { GEMINI_ADAPTOR } from './gemini-adaptor';

const ctx = { id: 'chatcmpl-s1', model: 'gemini-2.0-flash', created: 1_700_000_000 };
const head = {
  id: 'chatcmpl-s1',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'gemini-2.0-flash',
};
const chunk = (delta: JsonObject, finish: string | null = null, index = 0) => ({
  ...head,
  choices: [{ index, delta, logprobs: null, finish_reason: finish }],
});

describe('GEMINI_ADAPTOR stream', () => {
  it('converts the documented alt=sse events one by one', () => {
    const converter = GEMINI_ADAPTOR.stream(ctx);
    const meta = (candidates: number, thoughts?: number) => ({
      promptTokenCount: 9,
      cachedContentTokenCount: 4,
      candidatesTokenCount: candidates,
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      totalTokenCount: 9 + candidates + (thoughts ?? 0),
    });
    expect(
      converter.event({
        candidates: [
          { content: { parts: [{ text: 'Pondering…', thought: true }], role: 'model' }, index: 0 },
        ],
        usageMetadata: meta(0, 5),
        modelVersion: 'gemini-2.5-flash',
      }),
    ).toEqual([chunk({ role: 'assistant', reasoning_content: 'Pondering…' })]);
    expect(
      converter.event({
        candidates: [{ content: { parts: [{ text: 'The quick' }], role: 'model' }, index: 0 }],
        usageMetadata: meta(2, 5),
      }),
    ).toEqual([chunk({ content: 'The quick' })]);
    expect(
      converter.event({
        candidates: [
          {
            content: { parts: [{ text: ' brown fox.' }], role: 'model' },
            finishReason: 'STOP',
            index: 0,
          },
        ],
        usageMetadata: meta(6, 5),
      }),
    ).toEqual([chunk({ content: ' brown fox.' }), chunk({}, 'stop')]);
    expect(converter.usage()).toEqual({
      promptTokens: 9,
      completionTokens: 11,
      cachedTokens: 4,
      reasoningTokens: 5,
    });
    expect(converter.end()).toEqual([
      {
        ...head,
        choices: [],
        usage: {
          prompt_tokens: 9,
          completion_tokens: 11,
          total_tokens: 20,
          prompt_tokens_details: { cached_tokens: 4 },
          completion_tokens_details: { reasoning_tokens: 5 },
        },
      },
    ]);
    expect(converter.failure()).toBeUndefined();
  });

  it('streams whole function calls as indexed tool call deltas', () => {
    const converter = GEMINI_ADAPTOR.stream(ctx);
    const first = converter.event({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [{ functionCall: { name: 'get_weather', args: { city: 'Oslo' } } }],
          },
        },
      ],
    });
    const second = converter.event({
      candidates: [
        {
          content: { role: 'model', parts: [{ functionCall: { name: 'get_time', args: {} } }] },
          finishReason: 'STOP',
        },
      ],
    });
    expect(first).toEqual([
      chunk({
        role: 'assistant',
        tool_calls: [
          {
            index: 0,
            id: 'call_0',
            type: 'function',
            function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
          },
        ],
      }),
    ]);
    expect(second).toEqual([
      chunk({
        tool_calls: [
          {
            index: 1,
            id: 'call_1',
            type: 'function',
            function: { name: 'get_time', arguments: '{}' },
          },
        ],
      }),
      chunk({}, 'tool_calls'),
    ]);
    expect(converter.usage()).toBeUndefined();
    expect(converter.end()).toEqual([]);
  });

  it('reports a blocked prompt and an error event as failures', () => {
    const blocked = GEMINI_ADAPTOR.stream(ctx);
    expect(
      blocked.event({
        promptFeedback: { blockReason: 'SAFETY' },
        usageMetadata: { promptTokenCount: 7, totalTokenCount: 7 },
      }),
    ).toEqual([]);
    expect(blocked.failure()).toMatchObject({ status: 400, info: { code: 'content_filter' } });
    expect(blocked.failure()?.info.message).toContain('SAFETY');

    const broken = GEMINI_ADAPTOR.stream(ctx);
    broken.event({ candidates: [{ content: { parts: [{ text: 'a' }] } }] });
    expect(
      broken.event({
        error: { code: 503, message: 'The model is overloaded.', status: 'UNAVAILABLE' },
      }),
    ).toEqual([]);
    expect(broken.failure()).toEqual({
      status: 503,
      info: { message: 'The model is overloaded.', type: 'unavailable', code: 'UNAVAILABLE' },
    });
  });

  it('keeps candidates apart when n > 1', () => {
    const converter = GEMINI_ADAPTOR.stream(ctx);
    const out = converter.event({
      candidates: [
        { content: { parts: [{ text: 'A' }] }, index: 0 },
        { content: { parts: [{ text: 'B' }] }, index: 1, finishReason: 'MAX_TOKENS' },
      ],
    });
    expect(out).toEqual([
      chunk({ role: 'assistant', content: 'A' }),
      chunk({ role: 'assistant', content: 'B' }, null, 1),
      chunk({}, 'length', 1),
    ]);
  });
});
