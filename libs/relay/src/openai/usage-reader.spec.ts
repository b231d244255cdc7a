import { SseUsageReader, usageFromJson, usageFromObject } from './usage-reader';

const sse = (events: unknown[]) =>
  events.map((e) => `data: ${typeof e === 'string' ? e : JSON.stringify(e)}\n\n`).join('');

const delta = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });

describe('SseUsageReader', () => {
  it('extracts usage from the last chunk, notes the first chunk and [DONE], across split chunks', () => {
    let t = 1000;
    const reader = new SseUsageReader(() => t);
    const text = sse([
      delta('Hel'),
      delta('lo'),
      {
        choices: [],
        usage: {
          prompt_tokens: 12,
          completion_tokens: 2,
          total_tokens: 14,
          prompt_tokens_details: { cached_tokens: 4 },
        },
      },
      '[DONE]',
    ]);
    const bytes = Buffer.from(text);
    reader.push(bytes.subarray(0, 7));
    t = 2000;
    for (let i = 7; i < bytes.length; i += 5) reader.push(bytes.subarray(i, i + 5));
    const outcome = reader.end();
    expect(outcome).toMatchObject({
      usage: { promptTokens: 12, completionTokens: 2, cachedTokens: 4 },
      firstChunkAt: 1000,
      sawDone: true,
      bytes: bytes.length,
      chunks: 4,
    });
  });

  it('counts the completion locally when no usage came', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(Buffer.from(sse([delta('Hello'), delta(' world'), '[DONE]'])));
    expect(reader.end().usage).toBeUndefined();
    expect(reader.countCompletionLocally()).toBe(2);
  });

  it('reports an error event sent mid-stream, and a stream that stopped without [DONE]', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(
      Buffer.from(sse([delta('a'), { error: { message: 'overloaded', type: 'server_error' } }])),
    );
    expect(reader.end()).toMatchObject({ streamError: 'overloaded', sawDone: false });
  });

  it('tolerates CRLF lines, comments and a final line without newline', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(
      Buffer.from(
        ': keep-alive\r\ndata: {"usage":{"prompt_tokens":3,"completion_tokens":1}}\r\n\r\ndata: [DONE]',
      ),
    );
    expect(reader.end()).toMatchObject({
      usage: { promptTokens: 3, completionTokens: 1 },
      sawDone: true,
    });
  });

  it('ignores a null usage on intermediate chunks', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(Buffer.from(sse([{ ...delta('x'), usage: null }])));
    expect(reader.end().usage).toBeUndefined();
  });

  it('skips the null usages but reads a usage after them, spaced or nested, at the end of a line', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(Buffer.from('data: {"choices":[],"usage" : null}\n\ndata: {"usage":nul'));
    reader.push(
      Buffer.from('l,"response":{"usage":{"prompt_tokens":6,"completion_tokens":2}}}\n\n'),
    );
    reader.push(Buffer.from('data: {"usage":\n\n'));
    expect(reader.end().usage).toEqual({ promptTokens: 6, completionTokens: 2, cachedTokens: 0 });
  });

  it('keeps no payload once told to stop (its caller counts the rest), and still reads usage', () => {
    const reader = new SseUsageReader(() => 0);
    reader.push(Buffer.from(sse([delta('Hello'), delta(' there')])));
    expect(reader.completionText()).toBe('Hello there');
    reader.stopKeeping();
    reader.push(Buffer.from(sse([delta(' friend')])));
    reader.push(
      Buffer.from(sse([{ choices: [], usage: { prompt_tokens: 2, completion_tokens: 3 } }])),
    );
    expect(reader.completionText()).toBe('');
    expect(reader.end().usage).toEqual({ promptTokens: 2, completionTokens: 3, cachedTokens: 0 });
  });
});

describe('usageFromJson', () => {
  it('reads the usage object without parsing a large body before it', () => {
    const big = JSON.stringify({
      data: [{ embedding: Array.from({ length: 2000 }, (_, i) => i / 7), index: 0 }],
      model: 'e',
      usage: { prompt_tokens: 8, total_tokens: 8 },
    });
    expect(usageFromJson(Buffer.from(big))).toEqual({
      promptTokens: 8,
      completionTokens: 0,
      cachedTokens: 0,
    });
  });

  it('handles braces inside strings and missing usage', () => {
    expect(
      usageFromJson(Buffer.from('{"usage":{"prompt_tokens":1,"completion_tokens":2,"note":"}{"}}')),
    ).toMatchObject({ promptTokens: 1, completionTokens: 2 });
    expect(usageFromJson(Buffer.from('{"choices":[]}'))).toBeUndefined();
    expect(usageFromJson(Buffer.from('{"usage":{"prompt_tokens":'))).toBeUndefined();
  });

  it('derives completion from total when only total is given', () => {
    expect(usageFromObject({ prompt_tokens: 5, total_tokens: 9 })).toEqual({
      promptTokens: 5,
      completionTokens: 4,
      cachedTokens: 0,
    });
    expect(usageFromObject({ input_tokens: 3, output_tokens: 4 })).toMatchObject({
      promptTokens: 3,
      completionTokens: 4,
    });
    expect(usageFromObject({})).toBeUndefined();
  });
});
