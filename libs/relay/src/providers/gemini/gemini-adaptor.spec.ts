import type { JsonObject } from '../../openai/request-body';
import { GEMINI_ADAPTOR } from './gemini-adaptor';
import { wireChannel } from '../testing-fixtures';

const channel = wireChannel(24, {
  baseUrl: 'https://generativelanguage.googleapis.com',
  key: 'AIza-test',
});
const ctx = { id: 'chatcmpl-r1', model: 'gemini-2.0-flash', created: 1_700_000_000 };
const now = new Date(0);

function send(openai: JsonObject, model = 'gemini-2.0-flash', stream = false) {
  const request = GEMINI_ADAPTOR.request('chat', openai, channel, model, stream, now);
  return { request, body: JSON.parse(request.body.toString('utf8')) as JsonObject };
}

describe('GEMINI_ADAPTOR request (chat)', () => {
  it('goes to generateContent with the key in x-goog-api-key', () => {
    const { request, body } = send({
      model: 'gemini-2.0-flash',
      messages: [
        { role: 'system', content: 'You are a cat.' },
        { role: 'developer', content: [{ type: 'text', text: 'Your name is Neko.' }] },
        { role: 'user', content: 'Hello there' },
        { role: 'assistant', content: 'Meow.' },
        { role: 'user', content: 'How are you?' },
      ],
    });
    expect(request).toMatchObject({
      method: 'POST',
      origin: 'https://generativelanguage.googleapis.com',
      path: '/v1beta/models/gemini-2.0-flash:generateContent',
      headers: { 'content-type': 'application/json', 'x-goog-api-key': 'AIza-test' },
    });
    expect(body).toEqual({
      systemInstruction: { parts: [{ text: 'You are a cat.' }, { text: 'Your name is Neko.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Hello there' }] },
        { role: 'model', parts: [{ text: 'Meow.' }] },
        { role: 'user', parts: [{ text: 'How are you?' }] },
      ],
    });
  });

  it('streams with streamGenerateContent?alt=sse, under a base URL with a path', () => {
    const request = GEMINI_ADAPTOR.request(
      'chat',
      { messages: [{ role: 'user', content: 'hi' }], stream: true },
      { ...channel, baseUrl: 'https://proxy.example/google' },
      'gemini-1.5-pro',
      true,
      now,
    );
    expect(request.origin).toBe('https://proxy.example');
    expect(request.path).toBe('/google/v1beta/models/gemini-1.5-pro:streamGenerateContent?alt=sse');
    expect(request.headers.accept).toBe('text/event-stream');
  });

  it('sends data: images inline and other URLs as fileData', () => {
    const { body } = send({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            { type: 'image_url', image_url: { url: 'https://x.test/cat.JPG?size=2' } },
            { type: 'image_url', image_url: { url: 'https://x.test/photo' } },
            { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } },
          ],
        },
      ],
    });
    expect(body.contents).toEqual([
      {
        role: 'user',
        parts: [
          { text: 'What is in these?' },
          { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
          { fileData: { mimeType: 'image/jpeg', fileUri: 'https://x.test/cat.JPG?size=2' } },
          { fileData: { fileUri: 'https://x.test/photo' } },
          { inlineData: { mimeType: 'audio/wav', data: 'UklGRg==' } },
        ],
      },
    ]);
  });

  it('converts tools, tool_choice, calls and their answers', () => {
    const parameters = {
      type: 'object',
      properties: { location: { type: 'string' } },
      required: ['location'],
      additionalProperties: false,
    };
    const { body } = send({
      messages: [
        { role: 'user', content: 'Weather in Paris and Rome?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'get_time', arguments: '' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '{"temp":21}' },
        { role: 'tool', tool_call_id: 'call_b', content: '12:00' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'get_weather', description: 'Weather by city', parameters },
        },
        { type: 'function', function: { name: 'get_time' } },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
    });
    expect(body.contents).toEqual([
      { role: 'user', parts: [{ text: 'Weather in Paris and Rome?' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { name: 'get_weather', args: { location: 'Paris' } } },
          { functionCall: { name: 'get_time', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { name: 'get_weather', response: { temp: 21 } } },
          { functionResponse: { name: 'get_time', response: { content: '12:00' } } },
        ],
      },
      { role: 'user', parts: [{ text: 'Thanks' }] },
    ]);
    expect(body.tools).toEqual([
      {
        functionDeclarations: [
          { name: 'get_weather', description: 'Weather by city', parametersJsonSchema: parameters },
          { name: 'get_time' },
        ],
      },
    ]);
    expect(body.toolConfig).toEqual({
      functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['get_weather'] },
    });
  });

  it.each([
    ['auto', { mode: 'AUTO' }],
    ['none', { mode: 'NONE' }],
    ['required', { mode: 'ANY' }],
  ])('maps tool_choice %s', (choice, config) => {
    const { body } = send({ messages: [{ role: 'user', content: 'x' }], tool_choice: choice });
    expect(body.toolConfig).toEqual({ functionCallingConfig: config });
  });

  it('builds generationConfig from the sampling fields', () => {
    const schema = { type: 'object', properties: { a: { type: 'integer' } } };
    const { body } = send({
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 50,
      max_completion_tokens: 100,
      stop: 'END',
      n: 2,
      seed: 7,
      presence_penalty: 0.5,
      response_format: { type: 'json_schema', json_schema: { name: 'r', schema, strict: true } },
      reasoning_effort: 'medium',
    });
    expect(body.generationConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 100,
      stopSequences: ['END'],
      candidateCount: 2,
      seed: 7,
      presencePenalty: 0.5,
      responseMimeType: 'application/json',
      responseJsonSchema: schema,
      thinkingConfig: { thinkingBudget: 8192, includeThoughts: true },
    });
    const plain = send({
      messages: [{ role: 'user', content: 'x' }],
      response_format: { type: 'json_object' },
      reasoning_effort: 'none',
      stop: ['a', 'b'],
    }).body;
    expect(plain.generationConfig).toEqual({
      stopSequences: ['a', 'b'],
      responseMimeType: 'application/json',
      thinkingConfig: { thinkingBudget: 0 },
    });
    expect(send({ messages: [{ role: 'user', content: 'x' }] }).body.generationConfig).toBe(
      undefined,
    );
  });

  it('replays thought signatures, and fills the first call of a turn for Gemini 3', () => {
    const messages = [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        tool_calls: [
          {
            id: 'c1',
            type: 'function',
            function: { name: 'f', arguments: '{}' },
            extra_content: { google: { thought_signature: 'c2lnMQ==' } },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'c2', type: 'function', function: { name: 'f', arguments: '{}' } },
          { id: 'c3', type: 'function', function: { name: 'g', arguments: '{}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c2', content: 'ok' },
      { role: 'tool', tool_call_id: 'c3', content: 'ok' },
    ];
    const modelParts = (body: JsonObject) =>
      (body.contents as JsonObject[]).filter((c) => c.role === 'model').map((c) => c.parts);
    expect(modelParts(send({ messages }, 'gemini-3-pro-preview').body)).toEqual([
      [{ functionCall: { name: 'f', args: {} }, thoughtSignature: 'c2lnMQ==' }],
      [
        {
          functionCall: { name: 'f', args: {} },
          thoughtSignature: 'skip_thought_signature_validator',
        },
        { functionCall: { name: 'g', args: {} } },
      ],
    ]);
    // Older models never saw the placeholder: nothing is invented for them.
    expect(modelParts(send({ messages }, 'gemini-2.5-flash').body)[1]).toEqual([
      { functionCall: { name: 'f', args: {} } },
      { functionCall: { name: 'g', args: {} } },
    ]);
  });
});

describe('GEMINI_ADAPTOR response (chat)', () => {
  // The documented generateContent answer, with a thinking model's thought part.
  const answer = {
    candidates: [
      {
        content: {
          parts: [
            { text: 'Let me think about cats.', thought: true },
            { text: 'Cats are ' },
            { text: 'great.' },
          ],
          role: 'model',
        },
        finishReason: 'STOP',
        index: 0,
        safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'NEGLIGIBLE' }],
      },
    ],
    usageMetadata: {
      promptTokenCount: 120,
      cachedContentTokenCount: 100,
      candidatesTokenCount: 8,
      thoughtsTokenCount: 30,
      totalTokenCount: 158,
    },
    modelVersion: 'gemini-2.5-flash',
    responseId: 'abc',
  };

  it('turns candidates into choices with usage (cached and thoughts)', () => {
    const converted = GEMINI_ADAPTOR.response('chat', answer, ctx);
    expect(converted).toEqual({
      ok: true,
      usage: { promptTokens: 120, completionTokens: 38, cachedTokens: 100, reasoningTokens: 30 },
      body: {
        id: 'chatcmpl-r1',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'gemini-2.0-flash',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Cats are great.',
              reasoning_content: 'Let me think about cats.',
            },
            logprobs: null,
            finish_reason: 'stop',
          },
        ],
        usage: {
          prompt_tokens: 120,
          completion_tokens: 38,
          total_tokens: 158,
          prompt_tokens_details: { cached_tokens: 100 },
          completion_tokens_details: { reasoning_tokens: 30 },
        },
      },
    });
  });

  it('turns functionCall parts into tool_calls', () => {
    const converted = GEMINI_ADAPTOR.response(
      'chat',
      {
        candidates: [
          {
            content: {
              role: 'model',
              parts: [
                {
                  functionCall: { name: 'get_weather', args: { location: 'Paris' } },
                  thoughtSignature: 'c2ln',
                },
                { functionCall: { name: 'get_time', args: {} } },
              ],
            },
            finishReason: 'STOP',
          },
        ],
        usageMetadata: { promptTokenCount: 50, candidatesTokenCount: 12, totalTokenCount: 62 },
      },
      ctx,
    );
    if (!converted.ok) throw new Error('expected an answer');
    const choice = (converted.body.choices as JsonObject[])[0]!;
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_0',
          type: 'function',
          function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
          extra_content: { google: { thought_signature: 'c2ln' } },
        },
        { id: 'call_1', type: 'function', function: { name: 'get_time', arguments: '{}' } },
      ],
    });
    expect(converted.usage).toEqual({ promptTokens: 50, completionTokens: 12, cachedTokens: 0 });
  });

  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content_filter'],
    ['RECITATION', 'content_filter'],
    ['BLOCKLIST', 'content_filter'],
    ['PROHIBITED_CONTENT', 'content_filter'],
    ['SPII', 'content_filter'],
    ['OTHER', 'stop'],
  ])('maps finishReason %s to %s', (reason, expected) => {
    const converted = GEMINI_ADAPTOR.response(
      'chat',
      { candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: reason }] },
      ctx,
    );
    if (!converted.ok) throw new Error('expected an answer');
    expect((converted.body.choices as JsonObject[])[0]!.finish_reason).toBe(expected);
    expect(converted.usage).toBeUndefined();
  });

  it('answers a blocked prompt as a 400 content_filter failure', () => {
    const converted = GEMINI_ADAPTOR.response(
      'chat',
      {
        promptFeedback: { blockReason: 'PROHIBITED_CONTENT' },
        usageMetadata: { promptTokenCount: 12559, totalTokenCount: 12559 },
        modelVersion: 'gemini-1.5-flash-002',
      },
      ctx,
    );
    expect(converted).toEqual({
      ok: false,
      failure: {
        status: 400,
        info: {
          message: 'Gemini blocked the prompt (block reason: PROHIBITED_CONTENT)',
          type: 'invalid_request_error',
          code: 'content_filter',
        },
      },
    });
  });
});

describe('GEMINI_ADAPTOR embeddings', () => {
  it('sends one batchEmbedContents request per input and reads the vectors back', () => {
    const request = GEMINI_ADAPTOR.request(
      'embeddings',
      { model: 'text-embedding-004', input: ['hello', 'world'], dimensions: 256 },
      channel,
      'text-embedding-004',
      false,
      now,
    );
    expect(request.path).toBe('/v1beta/models/text-embedding-004:batchEmbedContents');
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      requests: [
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'hello' }] },
          outputDimensionality: 256,
        },
        {
          model: 'models/text-embedding-004',
          content: { parts: [{ text: 'world' }] },
          outputDimensionality: 256,
        },
      ],
    });
    const converted = GEMINI_ADAPTOR.response(
      'embeddings',
      { embeddings: [{ values: [0.1, 0.2] }, { values: [0.3, 0.4] }] },
      { ...ctx, model: 'text-embedding-004' },
    );
    expect(converted).toEqual({
      ok: true,
      usage: undefined,
      body: {
        object: 'list',
        model: 'text-embedding-004',
        data: [
          { object: 'embedding', index: 0, embedding: [0.1, 0.2] },
          { object: 'embedding', index: 1, embedding: [0.3, 0.4] },
        ],
      },
    });
    expect(GEMINI_ADAPTOR.endpoints.has('embeddings')).toBe(true);
    expect(GEMINI_ADAPTOR.endpoints.has('imagesGenerations')).toBe(false);
  });

  it('embeds a single string input', () => {
    const request = GEMINI_ADAPTOR.request(
      'embeddings',
      { input: 'one' },
      channel,
      'gemini-embedding-001',
      false,
      now,
    );
    expect(JSON.parse(request.body.toString('utf8'))).toEqual({
      requests: [{ model: 'models/gemini-embedding-001', content: { parts: [{ text: 'one' }] } }],
    });
  });
});

describe('GEMINI_ADAPTOR error', () => {
  it('reads Google error bodies', () => {
    const text = JSON.stringify({
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID' },
        ],
      },
    });
    expect(GEMINI_ADAPTOR.error(400, text)).toEqual({
      message: 'API key not valid. Please pass a valid API key.',
      type: 'invalid_argument',
      code: 'INVALID_ARGUMENT',
    });
    expect(
      GEMINI_ADAPTOR.error(
        429,
        '[{"error":{"code":429,"message":"Resource exhausted","status":"RESOURCE_EXHAUSTED"}}]',
      ),
    ).toEqual({
      message: 'Resource exhausted',
      type: 'resource_exhausted',
      code: 'RESOURCE_EXHAUSTED',
    });
  });

  it('keeps a non-JSON body as bounded text', () => {
    expect(GEMINI_ADAPTOR.error(502, '<html>Bad Gateway</html>')).toEqual({
      message: '<html>Bad Gateway</html>',
      type: 'upstream_error',
      code: '',
    });
    expect(GEMINI_ADAPTOR.error(500, 'x'.repeat(5000)).message).toHaveLength(1000);
  });
});
