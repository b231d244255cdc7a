import { cutEnding, AnthropicBlocks } from './cut-endings';
import {
  endsAtEventBoundary,
  holdMargin,
  eventData,
  OutputMeter,
  SseEventSplitter,
} from './output-meter';

describe('OutputMeter', () => {
  it('watches bytes until they could hold more tokens than allowed, then counts', () => {
    const meter = new OutputMeter(100);
    expect(meter.withinBytes(60)).toBe(true);
    expect(meter.withinBytes(40)).toBe(true);
    expect(meter.counting).toBe(false);
    expect(meter.withinBytes(1)).toBe(false);
    meter.startCounting(90);
    expect(meter.counting).toBe(true);
    expect(meter.withinBytes(0)).toBe(false);
    expect(meter.place(10)).toBe('deliver');
    expect(meter.tokens).toBe(100);
  });

  it('past the allowance holds (everything after too), past the margin cuts', () => {
    const meter = new OutputMeter(80);
    meter.startCounting(78);
    expect(meter.place(2)).toBe('deliver');
    expect(meter.place(1)).toBe('hold');
    // Held from here on, even output of no tokens: the order stays.
    expect(meter.place(0)).toBe('hold');
    expect(meter.place(holdMargin(80) - 1)).toBe('hold');
    expect(meter.tokens).toBe(80 + holdMargin(80));
    expect(meter.place(1)).toBe('cut');
    expect(meter.tokens).toBe(80 + holdMargin(80));
  });

  it('output that must go is counted and delivered whatever it holds', () => {
    const meter = new OutputMeter(10);
    meter.startCounting(0);
    expect(meter.deliver(50)).toBe('deliver');
    expect(meter.place(0)).toBe('cut');
  });

  it('an unbounded allowance never cuts', () => {
    const meter = new OutputMeter(Number.MAX_SAFE_INTEGER + 1);
    expect(meter.withinBytes(1e12)).toBe(true);
    meter.startCounting(0);
    expect(meter.place(1e12)).toBe('deliver');
  });

  it('the margin is an eighth and 8 tokens', () => {
    expect(holdMargin(0)).toBe(8);
    expect(holdMargin(16384)).toBe(2056);
  });
});

describe('SseEventSplitter', () => {
  it('gives whole events only, an unfinished one held back until it ends', () => {
    const splitter = new SseEventSplitter();
    const text = (events: Buffer[]) => events.map((e) => e.toString());
    expect(text(splitter.push(Buffer.from('data: 1\n\ndata: 2\n')))).toEqual(['data: 1\n\n']);
    expect(text(splitter.push(Buffer.from('\nevent: x\r\ndata: 3\r\n\r\nda')))).toEqual([
      'data: 2\n\n',
      'event: x\r\ndata: 3\r\n\r\n',
    ]);
    expect(splitter.rest()?.toString()).toBe('da');
    expect(splitter.rest()).toBeUndefined();
  });

  it("tells whether bytes end between events, and reads an event's data", () => {
    expect(endsAtEventBoundary(Buffer.from('data: x\n\n'))).toBe(true);
    expect(endsAtEventBoundary(Buffer.from('data: x\r\n\r\n'))).toBe(true);
    expect(endsAtEventBoundary(Buffer.from('data: x\n'))).toBe(false);
    expect(endsAtEventBoundary(Buffer.alloc(0))).toBe(true);
    expect(eventData(Buffer.from('event: e\ndata: {"a":1}\n\n'))).toBe('{"a":1}');
    expect(eventData(Buffer.from('data:a\ndata: b\n\n'))).toBe('a\nb');
    expect(eventData(Buffer.from('id: 1\r\ndata: é😀\r\ndata:\r\n: c\r\n\r\n'))).toBe('é😀\n');
    expect(eventData(Buffer.from(': only a comment\n\n'))).toBe('');
  });
});

describe('cutEnding', () => {
  const ctx = { id: 'chatcmpl-r1', model: 'm', created: 1 };
  const events = (text: string) =>
    text
      .split('\n\n')
      .filter(Boolean)
      .map((event) => /data: (.*)$/m.exec(event)![1]!);

  it('chat and completions: a length finish, then [DONE]', () => {
    const chat = events(cutEnding('chat', ctx, 10));
    expect(JSON.parse(chat[0]!)).toMatchObject({
      id: 'chatcmpl-r1',
      object: 'chat.completion.chunk',
      choices: [{ index: 0, delta: {}, finish_reason: 'length' }],
    });
    expect(chat[1]).toBe('[DONE]');
    expect(JSON.parse(events(cutEnding('completions', ctx, 10))[0]!)).toMatchObject({
      object: 'text_completion',
      choices: [{ finish_reason: 'length' }],
    });
  });

  it('the Responses API: response.incomplete for max_output_tokens', () => {
    const text = cutEnding('responses', ctx, 10);
    expect(text.startsWith('event: response.incomplete\n')).toBe(true);
    expect(JSON.parse(events(text)[0]!)).toMatchObject({
      response: { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } },
    });
  });

  it('Anthropic: the open blocks stopped, max_tokens, message_stop', () => {
    const blocks = new AnthropicBlocks();
    blocks.observe(
      Buffer.from(
        'event: content_block_start\ndata: {"type":"content_block_start","index":0}\n\n' +
          'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n' +
          'event: content_block_start\ndata: {"type":"content_block_start","index":1}\n\n',
      ),
    );
    expect(blocks.unclosed).toEqual([1]);
    const parts = events(cutEnding('anthropic', ctx, 31, blocks.unclosed)).map(
      (data) => JSON.parse(data) as { type: string },
    );
    expect(parts).toEqual([
      { type: 'content_block_stop', index: 1 },
      {
        type: 'message_delta',
        delta: { stop_reason: 'max_tokens', stop_sequence: null },
        usage: { output_tokens: 31 },
      },
      { type: 'message_stop' },
    ]);
  });

  it('Gemini: a MAX_TOKENS finish', () => {
    expect(JSON.parse(events(cutEnding('gemini', ctx, 5))[0]!)).toMatchObject({
      candidates: [{ finishReason: 'MAX_TOKENS' }],
    });
  });
});
