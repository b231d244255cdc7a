import {
  endpointOfPath,
  multipartBoundary,
  outgoingJson,
  parseJsonObject,
  readMultipartField,
  replaceMultipartField,
  requestFacts,
} from './request-body';

const raw = (s: string) => Buffer.from(s, 'utf8');

describe('outgoingJson', () => {
  it('passes the very same bytes when nothing changes', () => {
    const body = raw('{"model":"gpt-4o",  "messages":[]}');
    const out = outgoingJson(body, parseJsonObject(body)!, {
      model: 'gpt-4o',
      includeUsage: false,
    });
    expect(out).toBe(body);
  });

  it('splices include_usage in without re-serialising the prompt', () => {
    const body = raw(
      '{"model":"m","stream":true,"messages":[{"role":"user","content":"hi  there"}]}\n',
    );
    const out = outgoingJson(body, parseJsonObject(body)!, { includeUsage: true });
    expect(out.toString()).toBe(
      '{"model":"m","stream":true,"messages":[{"role":"user","content":"hi  there"}],"stream_options":{"include_usage":true}}\n',
    );
    expect(JSON.parse(out.toString()).stream_options).toEqual({ include_usage: true });
  });

  it('keeps other stream_options and re-serialises when it must', () => {
    const body = raw('{"model":"m","stream_options":{"x":1}}');
    const out = JSON.parse(
      outgoingJson(body, parseJsonObject(body)!, { includeUsage: true }).toString(),
    );
    expect(out.stream_options).toEqual({ x: 1, include_usage: true });
  });

  it('leaves a client that already asked for usage alone', () => {
    const body = raw('{"model":"m","stream_options":{"include_usage":true}}');
    expect(outgoingJson(body, parseJsonObject(body)!, { includeUsage: true })).toBe(body);
  });

  it('renames a mapped model', () => {
    const body = raw('{"model":"gpt-4","stream":true}');
    const out = JSON.parse(
      outgoingJson(body, parseJsonObject(body)!, {
        model: 'gpt-4-0613',
        includeUsage: true,
      }).toString(),
    );
    expect(out).toEqual({
      model: 'gpt-4-0613',
      stream: true,
      stream_options: { include_usage: true },
    });
  });
});

describe('requestFacts', () => {
  it('reads model, stream, max tokens', () => {
    expect(
      requestFacts('chat', {
        model: ' gpt-4o ',
        stream: true,
        max_tokens: 20,
        max_completion_tokens: 30,
      }),
    ).toEqual({ model: 'gpt-4o', stream: true, maxTokens: 30, n: 1, choices: 1 });
  });
  it('counts the choices an answer holds: chat n, completions n and best_of', () => {
    expect(requestFacts('chat', { model: 'm', n: 3 }).choices).toBe(3);
    expect(requestFacts('completions', { model: 'm', n: 2, best_of: 5 }).choices).toBe(5);
    expect(requestFacts('responses', { model: 'm', n: 4 }).choices).toBe(1);
    expect(requestFacts('chat', { model: 'm', n: 0 }).choices).toBe(1);
  });
  it("uses one-api's default models and ignores stream where it cannot apply", () => {
    expect(requestFacts('moderations', { input: 'x', stream: true })).toMatchObject({
      model: 'text-moderation-stable',
      stream: false,
    });
    expect(requestFacts('imagesGenerations', { prompt: 'x', n: 3 }).n).toBe(3);
    expect(requestFacts('chat', { max_tokens: -4 }).maxTokens).toBeUndefined();
  });
  it('rejects non-object JSON', () => {
    expect(parseJsonObject(raw('[1]'))).toBeUndefined();
    expect(parseJsonObject(raw('{bad'))).toBeUndefined();
  });
});

describe('endpointOfPath', () => {
  it.each([
    ['/v1/chat/completions', 'chat'],
    ['/pg/chat/completions', 'chat'],
    ['/v1/engines/text-embedding-3-small/embeddings', 'embeddings'],
    ['/v1/audio/translations', 'audioTranslations'],
    ['/v1/nothing', undefined],
  ])('%s → %s', (path, endpoint) => expect(endpointOfPath(path)).toBe(endpoint));
});

describe('multipart fields', () => {
  const boundary = '----b0undary';
  const body = Buffer.concat([
    raw(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    Buffer.from([0, 1, 2, 0x2d, 0x2d, 3]),
    raw(
      `\r\n--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}--\r\n`,
    ),
  ]);

  it('finds the boundary and reads a text field without touching the file', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${boundary}`)).toBe(boundary);
    expect(multipartBoundary('multipart/form-data; boundary="q b"')).toBe('q b');
    expect(readMultipartField(body, boundary, 'model')).toBe('whisper-1');
    expect(readMultipartField(body, boundary, 'file')).toBeUndefined();
  });

  it('replaces a field value', () => {
    const out = replaceMultipartField(body, boundary, 'model', 'whisper-large');
    expect(readMultipartField(out, boundary, 'model')).toBe('whisper-large');
    expect(out.length).toBe(body.length + 'whisper-large'.length - 'whisper-1'.length);
  });
});
