import type { JsonObject } from '../../openai/request-body';
import { GEMINI_ADAPTOR } from './gemini-adaptor';
import { GEMINI_INGRESS } from './gemini-ingress';

const ctx = { id: 'resp-1', model: 'gemini-2.0-flash', created: 1_700_000_000 };

/** A tools conversation as a Gemini client sends it (the function-calling guide's shape). */
const toolsConversation: JsonObject = {
  systemInstruction: { parts: [{ text: 'You are a weather bot.' }] },
  contents: [
    { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
    {
      role: 'model',
      parts: [
        {
          functionCall: { name: 'get_weather', args: { city: 'Paris' } },
          thoughtSignature: 'c2ln',
        },
        { functionCall: { name: 'get_weather', args: { city: 'Rome' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
        { functionResponse: { name: 'get_weather', response: { content: 'sunny, 25' } } },
      ],
    },
    { role: 'model', parts: [{ text: 'Paris 21, Rome 25.' }] },
    { role: 'user', parts: [{ text: 'Thanks!' }] },
  ],
  tools: [
    {
      functionDeclarations: [
        {
          name: 'get_weather',
          description: 'Weather by city',
          parameters: {
            type: 'OBJECT',
            properties: { city: { type: 'STRING' } },
            required: ['city'],
          },
        },
      ],
    },
  ],
  toolConfig: { functionCallingConfig: { mode: 'AUTO' } },
};

describe('GEMINI_INGRESS toOpenAi', () => {
  it('converts a tools conversation', () => {
    expect(GEMINI_INGRESS.toOpenAi(toolsConversation, { model: 'gemini-2.0-flash' })).toEqual({
      model: 'gemini-2.0-flash',
      messages: [
        { role: 'system', content: 'You are a weather bot.' },
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
              extra_content: { google: { thought_signature: 'c2ln' } },
            },
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Rome"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_0', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'call_1', content: 'sunny, 25' },
        { role: 'assistant', content: 'Paris 21, Rome 25.' },
        { role: 'user', content: 'Thanks!' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather by city',
            parameters: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        },
      ],
      tool_choice: 'auto',
    });
  });

  it('maps media, generationConfig and streaming', () => {
    const openai = GEMINI_INGRESS.toOpenAi(
      {
        system_instruction: { parts: [{ text: 'Be brief.' }] },
        contents: [
          {
            parts: [
              { text: 'Describe' },
              { inline_data: { mime_type: 'image/jpeg', data: '/9j/4AAQ' } },
              { inlineData: { mimeType: 'application/pdf', data: 'JVBERi0=' } },
              { fileData: { mimeType: 'image/png', fileUri: 'https://x.test/a.png' } },
            ],
          },
        ],
        generationConfig: {
          temperature: 0.3,
          topP: 0.8,
          topK: 40,
          maxOutputTokens: 64,
          stopSequences: ['END'],
          candidateCount: 1,
          seed: 3,
          responseMimeType: 'application/json',
          responseSchema: { type: 'ARRAY', items: { type: 'STRING' } },
          thinkingConfig: { thinkingBudget: 2048, includeThoughts: true },
        },
      },
      { model: 'gemini-2.5-flash', stream: true },
    );
    expect(openai).toEqual({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Describe' },
            { type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQ' } },
            { type: 'file', file: { file_data: 'data:application/pdf;base64,JVBERi0=' } },
            { type: 'image_url', image_url: { url: 'https://x.test/a.png' } },
          ],
        },
      ],
      temperature: 0.3,
      top_p: 0.8,
      max_tokens: 64,
      stop: ['END'],
      n: 1,
      seed: 3,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'response', schema: { type: 'array', items: { type: 'string' } } },
      },
      reasoning_effort: 'medium',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps functionCallingConfig ANY with one allowed name to a named tool_choice', () => {
    const openai = GEMINI_INGRESS.toOpenAi(
      {
        contents: [{ role: 'user', parts: [{ text: 'x' }] }],
        toolConfig: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['f'] } },
      },
      { model: 'm' },
    ) as JsonObject;
    expect(openai.tool_choice).toEqual({ type: 'function', function: { name: 'f' } });
  });

  it('says why a body is invalid', () => {
    expect(GEMINI_INGRESS.toOpenAi({}, { model: 'm' })).toMatch(/contents/);
    expect(GEMINI_INGRESS.toOpenAi({ contents: [] }, { model: 'm' })).toMatch(/contents/);
    expect(
      GEMINI_INGRESS.toOpenAi({ contents: [{ role: 'user', parts: [] }] }, { model: 'm' }),
    ).toMatch(/no usable parts/);
    expect(GEMINI_INGRESS.toOpenAi({ contents: [{ parts: [{ text: 'x' }] }] }, {})).toMatch(
      /model/,
    );
  });
});

describe('GEMINI_INGRESS fromOpenAi', () => {
  it('answers a GenerateContentResponse with the upstream usage', () => {
    const answer = GEMINI_INGRESS.fromOpenAi(
      {
        id: 'chatcmpl-x',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hi!', reasoning_content: 'greet' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      },
      { promptTokens: 30, completionTokens: 12, cachedTokens: 10, reasoningTokens: 4 },
      ctx,
    );
    expect(answer).toEqual({
      candidates: [
        {
          content: { role: 'model', parts: [{ text: 'greet', thought: true }, { text: 'Hi!' }] },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 30,
        candidatesTokenCount: 8,
        totalTokenCount: 42,
        cachedContentTokenCount: 10,
        thoughtsTokenCount: 4,
      },
      modelVersion: 'gemini-2.0-flash',
      responseId: 'resp-1',
    });
  });

  it('falls back to the body usage and maps length and tool calls', () => {
    const answer = GEMINI_INGRESS.fromOpenAi(
      {
        choices: [
          { index: 0, message: { content: 'cut' }, finish_reason: 'length' },
          {
            index: 1,
            message: {
              content: null,
              tool_calls: [
                { id: 'x', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
      },
      undefined,
      ctx,
    );
    expect(answer.candidates).toEqual([
      {
        content: { role: 'model', parts: [{ text: 'cut' }] },
        finishReason: 'MAX_TOKENS',
        index: 0,
      },
      {
        content: { role: 'model', parts: [{ functionCall: { name: 'f', args: { a: 1 } } }] },
        finishReason: 'STOP',
        index: 1,
      },
    ]);
    expect(answer.usageMetadata).toEqual({
      promptTokenCount: 5,
      candidatesTokenCount: 7,
      totalTokenCount: 12,
    });
  });
});

describe('GEMINI_INGRESS stream', () => {
  const events = (sse: string) =>
    sse
      .split('\r\n\r\n')
      .filter((e) => e !== '')
      .map((e) => {
        expect(e.startsWith('data: ')).toBe(true);
        return JSON.parse(e.slice(6)) as JsonObject;
      });
  const base = { object: 'chat.completion.chunk', id: 'c', created: 1, model: 'm' };

  it('sends text as it comes and the finish with usage at the end', () => {
    const encoder = GEMINI_INGRESS.stream(ctx);
    expect(
      encoder.chunk({
        ...base,
        choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }],
      }),
    ).toBe('');
    const text = encoder.chunk({
      ...base,
      choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }],
    });
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    expect(events(text)).toEqual([
      {
        candidates: [{ content: { role: 'model', parts: [{ text: 'Hel' }] }, index: 0 }],
        modelVersion: 'gemini-2.0-flash',
        responseId: 'resp-1',
      },
    ]);
    expect(
      encoder.chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
    ).toBe('');
    expect(encoder.chunk({ ...base, choices: [], usage: { prompt_tokens: 3 } })).toBe('');
    expect(events(encoder.end({ promptTokens: 3, completionTokens: 2, cachedTokens: 0 }))).toEqual([
      {
        candidates: [
          { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 },
        ],
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2, totalTokenCount: 5 },
        modelVersion: 'gemini-2.0-flash',
        responseId: 'resp-1',
      },
    ]);
  });

  it('assembles streamed tool call fragments into whole functionCall parts', () => {
    const encoder = GEMINI_INGRESS.stream(ctx);
    const delta = (d: JsonObject, finish: string | null = null) =>
      encoder.chunk({ ...base, choices: [{ index: 0, delta: d, finish_reason: finish }] });
    expect(
      delta({
        tool_calls: [
          {
            index: 0,
            id: 'call_9',
            type: 'function',
            function: { name: 'get_weather', arguments: '' },
            extra_content: { google: { thought_signature: 'c2ln' } },
          },
        ],
      }),
    ).toBe('');
    expect(delta({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] })).toBe('');
    expect(delta({ tool_calls: [{ index: 0, function: { arguments: '"Oslo"}' } }] })).toBe('');
    const finished = events(delta({}, 'tool_calls'));
    expect(finished).toEqual([
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: { name: 'get_weather', args: { city: 'Oslo' } },
                  thoughtSignature: 'c2ln',
                },
              ],
            },
            index: 0,
          },
        ],
        modelVersion: 'gemini-2.0-flash',
        responseId: 'resp-1',
      },
    ]);
    expect(events(encoder.end(undefined))[0]).toEqual({
      candidates: [
        { content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP', index: 0 },
      ],
      modelVersion: 'gemini-2.0-flash',
      responseId: 'resp-1',
    });
  });
  it('returns reasoning as thought parts, whole and streamed', () => {
    const whole = GEMINI_INGRESS.fromOpenAi(
      {
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Blue.', reasoning_content: 'Rayleigh.' },
            finish_reason: 'stop',
          },
        ],
      },
      { promptTokens: 5, completionTokens: 9, cachedTokens: 0, reasoningTokens: 4 },
      ctx,
    );
    expect(whole).toMatchObject({
      candidates: [
        { content: { parts: [{ text: 'Rayleigh.', thought: true }, { text: 'Blue.' }] } },
      ],
      usageMetadata: { candidatesTokenCount: 5, thoughtsTokenCount: 4 },
    });
    const encoder = GEMINI_INGRESS.stream(ctx);
    const chunk = (delta: JsonObject) => ({ ...base, choices: [{ index: 0, delta }] });
    const sent = events(
      encoder.chunk(chunk({ reasoning_content: 'Rayleigh.' })) +
        encoder.chunk(chunk({ content: 'Blue.' })),
    );
    expect(sent.map((e) => (e.candidates as JsonObject[])[0]!.content)).toEqual([
      { role: 'model', parts: [{ text: 'Rayleigh.', thought: true }] },
      { role: 'model', parts: [{ text: 'Blue.' }] },
    ]);
  });
});

describe('GEMINI_INGRESS errorBody', () => {
  it.each([
    [400, 'INVALID_ARGUMENT'],
    [401, 'UNAUTHENTICATED'],
    [403, 'PERMISSION_DENIED'],
    [404, 'NOT_FOUND'],
    [429, 'RESOURCE_EXHAUSTED'],
    [500, 'INTERNAL'],
    [503, 'UNAVAILABLE'],
  ])('names %i %s', (status, name) => {
    expect(GEMINI_INGRESS.errorBody(status, 'nope', 'some_type', null)).toEqual({
      error: { code: status, message: 'nope', status: name },
    });
  });
});

describe('Gemini → OpenAI → Gemini round trip', () => {
  it('gives the Gemini adaptor back the conversation the client sent', () => {
    const openai = GEMINI_INGRESS.toOpenAi(toolsConversation, { model: 'gemini-2.0-flash' });
    if (typeof openai === 'string') throw new Error(openai);
    const request = GEMINI_ADAPTOR.request(
      'chat',
      openai,
      {
        type: 24,
        baseUrl: 'https://generativelanguage.googleapis.com',
        key: 'k',
        other: '',
        openaiOrganization: '',
        modelMapping: {},
      },
      'gemini-2.0-flash',
      false,
      new Date(0),
    );
    const body = JSON.parse(request.body.toString('utf8')) as JsonObject;
    expect(body.systemInstruction).toEqual(toolsConversation.systemInstruction);
    expect(body.contents).toEqual(toolsConversation.contents);
    expect(body.toolConfig).toEqual(toolsConversation.toolConfig);
    // The declaration comes back as JSON Schema (lower-case types), which Gemini also takes.
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          {
            name: 'get_weather',
            description: 'Weather by city',
            parametersJsonSchema: {
              type: 'object',
              properties: { city: { type: 'string' } },
              required: ['city'],
            },
          },
        ],
      },
    ]);
  });

  it('gives the client back the answer the upstream Gemini sent', () => {
    const upstream = {
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              {
                functionCall: { name: 'get_weather', args: { city: 'Oslo' } },
                thoughtSignature: 'c2ln',
              },
            ],
          },
          finishReason: 'STOP',
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 40,
        cachedContentTokenCount: 8,
        candidatesTokenCount: 6,
        thoughtsTokenCount: 3,
        totalTokenCount: 49,
      },
    };
    const converted = GEMINI_ADAPTOR.response('chat', upstream, ctx);
    if (!converted.ok) throw new Error('expected an answer');
    const back = GEMINI_INGRESS.fromOpenAi(converted.body, converted.usage, ctx);
    expect(back.candidates).toEqual(upstream.candidates);
    expect(back.usageMetadata).toEqual(upstream.usageMetadata);
  });
});
