import type { JsonObject } from '../../openai/request-body';
import { chunksOfCompletion } from '../openai-chunks';
import { RESPONSES_OVER_CHAT } from './responses-ingress';

const ctx = { id: 'chatcmpl-req1', model: 'claude-sonnet-4', created: 1_700_000_000 };
const usage = { promptTokens: 12, completionTokens: 7, cachedTokens: 2, reasoningTokens: 3 };

/** The SSE text as its events' data objects, in order. */
function events(sse: string): JsonObject[] {
  return sse
    .split('\n\n')
    .filter((frame) => frame.trim() !== '')
    .map((frame) => {
      const [name, data] = frame.split('\n');
      const payload = JSON.parse(data!.slice('data: '.length)) as JsonObject;
      expect(name).toBe(`event: ${String(payload.type)}`);
      return payload;
    });
}

describe('Responses requests through the chat hub', () => {
  const toChat = (body: JsonObject) => RESPONSES_OVER_CHAT.toOpenAi(body, {});

  it('reads instructions, a string input and the sampling, ceiling, effort and stream fields', () => {
    expect(
      toChat({
        model: 'claude-sonnet-4',
        instructions: 'Be brief.',
        input: 'Hi',
        max_output_tokens: 300,
        temperature: 0.3,
        reasoning: { effort: 'low', summary: 'auto' },
        stream: true,
        store: true,
      }),
    ).toEqual({
      model: 'claude-sonnet-4',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      max_tokens: 300,
      temperature: 0.3,
      reasoning_effort: 'low',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('gathers function calls onto the assistant turn and their outputs as tool messages', () => {
    const chat = toChat({
      model: 'm',
      input: [
        { role: 'developer', content: 'Use tools.' },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Weather?' }] },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'opaque' },
        { type: 'function_call', call_id: 'c1', name: 'weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call', call_id: 'c2', name: 'weather', arguments: '{"city":"Rome"}' },
        { type: 'function_call_output', call_id: 'c1', output: '3°C' },
        {
          type: 'function_call_output',
          call_id: 'c2',
          output: [{ type: 'input_text', text: '20°C' }],
        },
      ],
      tools: [{ type: 'function', name: 'weather', parameters: { type: 'object' }, strict: true }],
      tool_choice: { type: 'function', name: 'weather' },
    }) as JsonObject;
    expect(chat.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Oslo"}' },
          },
          {
            id: 'c2',
            type: 'function',
            function: { name: 'weather', arguments: '{"city":"Rome"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '3°C' },
      { role: 'tool', tool_call_id: 'c2', content: '20°C' },
    ]);
    expect(chat.tools).toEqual([
      {
        type: 'function',
        function: { name: 'weather', parameters: { type: 'object' }, strict: true },
      },
    ]);
    expect(chat.tool_choice).toEqual({ type: 'function', function: { name: 'weather' } });
  });

  it('carries images and text.format as response_format', () => {
    const chat = toChat({
      model: 'm',
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is it?' },
            { type: 'input_image', image_url: 'data:image/png;base64,AAAA', detail: 'low' },
          ],
        },
      ],
      text: {
        format: { type: 'json_schema', name: 'thing', schema: { type: 'object' }, strict: true },
      },
    }) as JsonObject;
    expect(chat.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is it?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA', detail: 'low' } },
        ],
      },
    ]);
    expect(chat.response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'thing', schema: { type: 'object' }, strict: true },
    });
  });

  it.each([
    [{ previous_response_id: 'resp_1' }, /previous_response_id/],
    [{ tools: [{ type: 'web_search' }] }, /tool type web_search/],
    [{ input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f1' }] }] }, /file_id/],
    [{ input: [{ type: 'computer_call_output', call_id: 'c' }] }, /computer_call_output/],
    [{ input: 42 }, /input must be/],
  ])('refuses what only OpenAI serves, with the reason: %j', (extra, reason) => {
    const refused = toChat({ model: 'm', input: 'Hi', ...extra });
    expect(typeof refused).toBe('string');
    expect(refused).toMatch(reason);
  });
});

describe('chat answers as Responses', () => {
  const completion: JsonObject = {
    id: 'chatcmpl-req1',
    object: 'chat.completion',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: 'Checking.',
          reasoning_content: 'The user wants weather.',
          tool_calls: [
            { id: 'call_9', type: 'function', function: { name: 'weather', arguments: '{"c":1}' } },
          ],
        },
        finish_reason: 'tool_calls',
      },
    ],
  };

  it('gives reasoning, message and function call items with Responses usage', () => {
    const answer = RESPONSES_OVER_CHAT.fromOpenAi(completion, usage, ctx);
    expect(answer).toMatchObject({
      id: 'resp_req1',
      object: 'response',
      created_at: ctx.created,
      status: 'completed',
      model: 'claude-sonnet-4',
      output: [
        {
          type: 'reasoning',
          id: 'rs_req1',
          summary: [{ type: 'summary_text', text: 'The user wants weather.' }],
        },
        {
          type: 'message',
          id: 'msg_req1',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: 'Checking.', annotations: [] }],
        },
        {
          type: 'function_call',
          id: 'fc_req1_0',
          call_id: 'call_9',
          name: 'weather',
          arguments: '{"c":1}',
          status: 'completed',
        },
      ],
      usage: {
        input_tokens: 12,
        input_tokens_details: { cached_tokens: 2 },
        output_tokens: 7,
        output_tokens_details: { reasoning_tokens: 3 },
        total_tokens: 19,
      },
    });
  });

  it('says incomplete with the reason when the ceiling stopped the answer', () => {
    const cut = {
      choices: [
        { index: 0, message: { role: 'assistant', content: 'Par' }, finish_reason: 'length' },
      ],
    };
    expect(RESPONSES_OVER_CHAT.fromOpenAi(cut, usage, ctx)).toMatchObject({
      status: 'incomplete',
      incomplete_details: { reason: 'max_output_tokens' },
    });
  });

  it('streams the event sequence, numbered, ending with the same response a whole answer gives', () => {
    const encoder = RESPONSES_OVER_CHAT.stream(ctx);
    const sse =
      chunksOfCompletion(completion, ctx, usage)
        .map((chunk) => encoder.chunk(chunk))
        .join('') + encoder.end(usage);
    const sequence = events(sse);
    expect(sequence.map((e) => e.type)).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(sequence.map((e) => e.sequence_number)).toEqual(sequence.map((_, i) => i));
    expect(sequence[0]).toMatchObject({ response: { id: 'resp_req1', status: 'in_progress' } });
    expect(sequence[10]).toMatchObject({
      item_id: 'msg_req1',
      output_index: 1,
      delta: 'Checking.',
    });
    const whole = RESPONSES_OVER_CHAT.fromOpenAi(completion, usage, ctx);
    expect(sequence[sequence.length - 1]!.response).toEqual(whole);
  });

  it('ends a cut stream incomplete, and an empty one with an empty message', () => {
    const cut = RESPONSES_OVER_CHAT.stream(ctx);
    const text =
      cut.chunk({ choices: [{ index: 0, delta: { content: 'Par' }, finish_reason: null }] }) +
      cut.chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'length' }] }) +
      cut.end(usage);
    const last = events(text).pop()!;
    expect(last).toMatchObject({
      type: 'response.incomplete',
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
    const empty = RESPONSES_OVER_CHAT.stream(ctx);
    const done = events(empty.end(undefined)).pop()!;
    expect(done).toMatchObject({
      type: 'response.completed',
      response: { output: [{ type: 'message', content: [{ type: 'output_text', text: '' }] }] },
    });
  });
});
