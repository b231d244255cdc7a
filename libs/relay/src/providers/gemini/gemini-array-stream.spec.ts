import { cutEnding } from '../../openai/cut-endings';
import { GeminiArrayStream } from './gemini-array-stream';
import { GeminiStreamEncoder } from './gemini-ingress-answer';

const CTX = { id: 'chatcmpl-1', model: 'gemini-2.0-flash', created: 1 };
const CHUNKS = [
  { candidates: [{ content: { role: 'model', parts: [{ text: 'Ho' }] }, index: 0 }] },
  { candidates: [{ content: { role: 'model', parts: [{ text: 'la' }] }, index: 0 }] },
  { candidates: [], usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 2 } },
];
const SSE = CHUNKS.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');

describe('GeminiArrayStream', () => {
  it("re-frames alt=sse events into Google's JSON array, however the bytes are split", () => {
    const whole = new GeminiArrayStream();
    const once = whole.push(SSE) + whole.end(false);
    expect(JSON.parse(once)).toEqual(CHUNKS);
    expect(once.startsWith('[{')).toBe(true);

    const split = new GeminiArrayStream();
    const bytes = Buffer.from(SSE);
    let out = '';
    for (let i = 0; i < bytes.length; i++) out += split.push(bytes.subarray(i, i + 1));
    expect(out + split.end(false)).toBe(once);
  });

  it('closes an empty stream as [] and keeps a last event that lacks its blank line', () => {
    const empty = new GeminiArrayStream();
    expect(empty.push(': keep-alive\n\n') + empty.end(false)).toBe('[]');
    const unterminated = new GeminiArrayStream();
    const text = unterminated.push(`data: ${JSON.stringify(CHUNKS[0])}`) + unterminated.end(false);
    expect(JSON.parse(text)).toEqual([CHUNKS[0]]);
  });

  it("a broken stream still parses: its cut event dropped, Google's error element last", () => {
    const broken = new GeminiArrayStream();
    const text = broken.push(SSE.slice(0, SSE.length - 20)) + broken.end(true);
    const parsed = JSON.parse(text) as unknown[];
    expect(parsed.slice(0, 2)).toEqual(CHUNKS.slice(0, 2));
    expect(parsed[2]).toMatchObject({ error: { code: 500, status: 'INTERNAL' } });
  });

  it("carries the converted encoder's events and a cut's ending", () => {
    const encoder = new GeminiStreamEncoder(CTX);
    const array = new GeminiArrayStream();
    let text = array.push(
      encoder.chunk({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] }),
    );
    text += array.push(cutEnding('gemini', CTX, 1));
    text += array.push(encoder.end({ promptTokens: 4, completionTokens: 1, cachedTokens: 0 }));
    const parsed = JSON.parse(text + array.end(false)) as Record<string, unknown>[];
    expect(parsed).toHaveLength(3);
    expect(parsed[1]).toMatchObject({ candidates: [{ finishReason: 'MAX_TOKENS' }] });
    expect(parsed[2]).toMatchObject({ usageMetadata: { promptTokenCount: 4 } });
  });
});
