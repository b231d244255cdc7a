import { OutputMeter } from '@tollgate/relay';
import { FinalEventHold } from './final-event-hold';
import { MeteredSse } from './metered-sse';

/** One event of `n` output "tokens" (the test counts a token per `t` in the data). */
const event = (n: number) => `data: ${'t'.repeat(n)}\n\n`;
const countTs = (bytes: Buffer, exact: boolean) => {
  const text = exact ? (bytes.toString().match(/^data: (t*)$/m)?.[1] ?? '') : '';
  return { text, tokens: text.length };
};

describe('MeteredSse', () => {
  it('passes whole chunks while their bytes cannot pass the allowance, parsing nothing', () => {
    const seen: boolean[] = [];
    const metered = new MeteredSse(
      new OutputMeter(1000),
      (bytes, exact) => {
        seen.push(exact);
        return countTs(bytes, exact);
      },
      () => 0,
    );
    const chunk = Buffer.from(event(3) + event(4));
    expect(metered.push(chunk)).toBe(chunk);
    expect(seen).toEqual([false]);
    expect(metered.cut).toBe(false);
  });

  it('counts whole events past that, holds those past the allowance, cuts past the margin', () => {
    // Allowance 10, margin 10: 20 tokens at most, held past 10.
    const metered = new MeteredSse(new OutputMeter(10), countTs, () => 0);
    const out = metered.push(Buffer.from(event(4) + event(5) + event(3) + event(2)));
    expect(out.toString()).toBe(event(4) + event(5));
    expect(metered.deliveredText).toBe('t'.repeat(9));
    expect(metered.holding).toBe(true);
    expect(metered.cut).toBe(false);
    expect(metered.push(Buffer.from(event(7))).length).toBe(0);
    expect(metered.cut).toBe(true);
    expect(metered.holding).toBe(false);
    expect(metered.push(Buffer.from(event(1))).length).toBe(0);
    expect(metered.rest().length).toBe(0);
  });

  it('the whole events of a chunk go out as a view of it, not a copy', () => {
    const metered = new MeteredSse(new OutputMeter(10), countTs, () => 0);
    const chunk = Buffer.from(event(2) + event(3) + event(1) + 'data: t');
    const out = metered.push(chunk);
    expect(out.toString()).toBe(event(2) + event(3) + event(1));
    expect([out.buffer, out.byteOffset]).toEqual([chunk.buffer, chunk.byteOffset]);
    // An event begun in the chunk before, finished in this one, then the next: in order.
    expect(metered.push(Buffer.from('t\n\n' + event(1))).toString()).toBe(event(2) + event(1));
  });

  it('held events go out when released (the upstream showed they were paid for)', () => {
    const metered = new MeteredSse(new OutputMeter(10), countTs, () => 0);
    metered.push(Buffer.from(event(8) + event(3) + 'data: [DONE]\n\n'));
    expect(metered.releaseHeld().toString()).toBe(event(3) + 'data: [DONE]\n\n');
    expect(metered.deliveredText).toBe('t'.repeat(11));
    expect(metered.holding).toBe(false);
  });

  it('tells whether counting begins between two events', () => {
    const told: boolean[] = [];
    const starting = (atBoundary: boolean) => (told.push(atBoundary), 0);
    new MeteredSse(new OutputMeter(12), countTs, starting).push(Buffer.from(event(20)));
    const midEvent = new MeteredSse(new OutputMeter(12), countTs, starting);
    midEvent.push(Buffer.from('data: tt\n\nda'));
    midEvent.push(Buffer.from('ta: tttttttttttt\n\n'));
    expect(told).toEqual([true, false]);
  });

  it('holds an unfinished event back once counting, and finishes one begun before', () => {
    const meter = new OutputMeter(12);
    const metered = new MeteredSse(meter, countTs, () => 2);
    // 10 bytes: within 12, passed whole although it ends inside an event.
    expect(metered.push(Buffer.from('data: tt\n\nda')).toString()).toBe('data: tt\n\nda');
    // Counting starts at 2 (delivered before): the begun event goes out whatever it holds.
    expect(metered.push(Buffer.from('ta: tttttttttttt\n\ndata: t')).toString()).toBe(
      'ta: tttttttttttt\n\n',
    );
    // The held "data: t" completed with ten more: 2 + 11 passes 12, within the margin of 10.
    expect(metered.push(Buffer.from('tttttttttt\n\n')).length).toBe(0);
    expect(metered.holding).toBe(true);
  });

  it('an unfinished event at the upstream end goes the way the others went', () => {
    const metered = new MeteredSse(new OutputMeter(5), countTs, () => 0);
    metered.push(Buffer.from(event(1) + event(1) + 'data: tt'));
    expect(metered.rest().toString()).toBe('data: tt');
  });
});

describe('FinalEventHold', () => {
  const take = (hold: FinalEventHold, chunks: string[]) =>
    chunks.map((chunk) => hold.push(Buffer.from(chunk)).toString()).join('');

  it('holds [DONE] and what follows until the commit', () => {
    const hold = new FinalEventHold();
    expect(take(hold, [event(2), 'data: {"usage":1}\n\ndata: [DONE]\n\n'])).toBe(
      event(2) + 'data: {"usage":1}\n\n',
    );
    expect(hold.push(Buffer.from('late')).length).toBe(0);
    expect(hold.rest().toString()).toBe('data: [DONE]\n\nlate');
  });

  it('finds a marker split over chunks, without holding back ordinary event ends', () => {
    const hold = new FinalEventHold();
    expect(take(hold, ['data: x\n\n'])).toBe('data: x\n\n');
    expect(take(hold, ['event: message_st'])).toBe('');
    expect(take(hold, ['op\ndata: {}\n\n'])).toBe('');
    expect(hold.rest().toString()).toBe('event: message_stop\ndata: {}\n\n');
    const responses = new FinalEventHold();
    expect(take(responses, ['event: response.output_text.delta\ndata: {}\n\nevent: resp'])).toBe(
      'event: response.output_text.delta\ndata: {}\n\n',
    );
    expect(take(responses, ['onse.completed\ndata: {}\n\n'])).toBe('');
    expect(responses.rest().toString()).toBe('event: response.completed\ndata: {}\n\n');
  });

  it('a stream without a final event is held only at its end', () => {
    const hold = new FinalEventHold();
    expect(take(hold, ['data: {"candidates":[]}\n\n'])).toBe('data: {"candidates":[]}\n\n');
    expect(hold.rest().length).toBe(0);
  });
});
