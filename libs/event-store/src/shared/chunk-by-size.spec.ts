import { randomUUID } from 'node:crypto';
import { SqliteEventStore } from '../sqlite/sqlite-event-store';
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

describe('an event measured, then appended', () => {
  it('is turned into JSON once, and the store writes what was measured', async () => {
    const store = SqliteEventStore.open(':memory:');
    const event = {
      id: randomUUID(),
      type: 'Measured',
      data: { text: 'é', n: 1 },
      metadata: { actor: 'x' },
    };
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      const bytes = eventBytes(event);
      await store.append('measured-1', [event], 'any');
      expect(stringify.mock.calls.filter(([value]) => value === event.data)).toHaveLength(1);
      expect(stringify.mock.calls.filter(([value]) => value === event.metadata)).toHaveLength(1);
      const [stored] = await store.readStream('measured-1');
      expect(stored?.data).toEqual(event.data);
      expect(stored?.metadata).toEqual(event.metadata);
      expect(bytes).toBe(
        Buffer.byteLength(JSON.stringify(event.data)) +
          Buffer.byteLength(JSON.stringify(event.metadata)),
      );
    } finally {
      stringify.mockRestore();
      await store.close();
    }
  });

  it('an event appended unmeasured is serialised by each append: a retry writes its change', async () => {
    const store = SqliteEventStore.open(':memory:');
    const event = { id: randomUUID(), type: 'Retried', data: { attempt: 1 } };
    try {
      await expect(store.append('retried-1', [event], 5)).rejects.toThrow();
      event.data.attempt = 2;
      await store.append('retried-1', [event], 'any');
      const [stored] = await store.readStream('retried-1');
      expect(stored?.data).toEqual({ attempt: 2 });
    } finally {
      await store.close();
    }
  });
});
