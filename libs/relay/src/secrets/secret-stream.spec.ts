import { SecretScrubber } from './secret-scrubber';

const KEY = 'sk-live-7Qm2Zx9Lw4Rt8Yp1Kd6Hs3Nv';
const scrubber = SecretScrubber.of([KEY]);

/** Pushes the chunks through one stream; everything that went out. */
function run(chunks: readonly string[]): string {
  const stream = scrubber.stream();
  const out = chunks.map((chunk) => stream.push(Buffer.from(chunk)));
  return Buffer.concat([...out, stream.end()]).toString();
}

const SSE =
  'data: {"choices":[{"delta":{"content":"hi"}}]}\n\n' +
  `data: {"error":{"message":"Incorrect API key provided: Bearer ${KEY}","type":"invalid_request_error"}}\n\n` +
  'data: [DONE]\n\n';

describe('SecretStream', () => {
  it('masks a key split by a chunk boundary, wherever the boundary falls', () => {
    const whole = scrubber.text(SSE);
    expect(whole).not.toContain(KEY);
    for (let cut = 0; cut <= SSE.length; cut += 1)
      expect(run([SSE.slice(0, cut), SSE.slice(cut)])).toBe(whole);
  });

  it('masks a key spread over many small chunks', () => {
    const chunks = SSE.match(/[\s\S]{1,3}/g) ?? [];
    expect(run(chunks)).toBe(scrubber.text(SSE));
  });

  it('holds nothing back at the end of an event, and passes a clean chunk as it is', () => {
    const stream = scrubber.stream();
    const event = Buffer.from('data: {"choices":[{"delta":{"content":"s"}}]}\n\n');
    expect(stream.push(event)).toBe(event);
    expect(stream.end().length).toBe(0);
  });

  it('holds back only what could begin a key, and lets it go when it does not', () => {
    const stream = scrubber.stream();
    expect(stream.push(Buffer.from('data: sk-li')).toString()).toBe('data: ');
    expect(stream.push(Buffer.from('ke a cat\n\n')).toString()).toBe('sk-like a cat\n\n');
  });

  it('masks a key cut by the end of the stream', () => {
    expect(run(['data: ', KEY.slice(0, 14)])).toBe('data: ***');
    expect(run(['data: ', KEY.slice(0, 4)])).toBe(`data: ${KEY.slice(0, 4)}`);
  });

  it('passes everything untouched without secrets', () => {
    const stream = SecretScrubber.NONE.stream();
    const chunk = Buffer.from(`data: ${KEY.slice(0, 10)}`);
    expect(stream.push(chunk)).toBe(chunk);
    expect(stream.end().length).toBe(0);
  });
});
