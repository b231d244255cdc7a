import { chunkBySize, eventBytes } from './chunk-by-size';

const sizes = (chunks: number[][]) => chunks.map((c) => c.reduce((a, b) => a + b, 0));

describe('chunkBySize', () => {
  it('keeps order, cuts before a chunk would pass the byte cap, and never leaves one empty', () => {
    const items = [40, 30, 20, 50, 10, 10, 90];
    const chunks = chunkBySize(items, (n) => n, { maxBytes: 100, maxEvents: 10 });
    expect(chunks.flat()).toEqual(items);
    expect(chunks.every((c) => c.length > 0)).toBe(true);
    expect(Math.max(...sizes(chunks))).toBeLessThanOrEqual(100);
    expect(chunks.length).toBeGreaterThan(1);
  });

  it('cuts by count as well', () => {
    const chunks = chunkBySize([1, 1, 1, 1, 1], (n) => n, { maxBytes: 1000, maxEvents: 2 });
    expect(chunks.map((c) => c.length)).toEqual([2, 2, 1]);
  });

  it('puts an item bigger than the cap alone', () => {
    const chunks = chunkBySize([10, 500, 10], (n) => n, { maxBytes: 100, maxEvents: 10 });
    expect(chunks).toEqual([[10], [500], [10]]);
  });

  it('does not measure a single item', () => {
    const measure = jest.fn((n: number) => n);
    expect(chunkBySize([7], measure, { maxBytes: 1 })).toEqual([[7]]);
    expect(chunkBySize([], measure, { maxBytes: 1 })).toEqual([]);
    expect(measure).not.toHaveBeenCalled();
  });
});

describe('eventBytes', () => {
  it('counts the UTF-8 bytes of data and metadata', () => {
    const data = { text: 'é' }; // two bytes in UTF-8, one UTF-16 unit
    const metadata = { a: 1 };
    expect(eventBytes({ id: 'x', type: 'T', data, metadata })).toBe(
      Buffer.byteLength(JSON.stringify(data)) + Buffer.byteLength(JSON.stringify(metadata)),
    );
    expect(eventBytes({ id: 'x', type: 'T', data })).toBeGreaterThan(JSON.stringify(data).length);
  });
});
