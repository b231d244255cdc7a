import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from './sqlite-event-store';

const dir = mkdtempSync(join(tmpdir(), 'tollgate-delete-stream-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVENTS = 300;
const PAD = 'x'.repeat(500);

/** Events that do not compress (a random text each), so they fill real pages. */
function bulky(count: number) {
  return Array.from({ length: count }, () => ({
    id: randomUUID(),
    type: 'Bulky',
    data: { text: randomUUID().repeat(40), pad: PAD },
  }));
}

function pragma(file: string, name: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma(name, { simple: true }) as number;
  } finally {
    db.close();
  }
}

describe('SqliteEventStore.deleteStream on a file', () => {
  it('creates new files with incremental auto-vacuum and gives the pages back after a delete', async () => {
    const file = join(dir, 'new.sqlite');
    const store = SqliteEventStore.open(file);
    await store.append('usage-a-2026010100', bulky(EVENTS), 'no_stream');
    await store.append('kept', bulky(1), 'no_stream');
    const before = pragma(file, 'page_count');
    await store.deleteStream('usage-a-2026010100');
    await store.close();
    expect(pragma(file, 'auto_vacuum')).toBe(2);
    expect(pragma(file, 'freelist_count')).toBe(0);
    expect(pragma(file, 'page_count')).toBeLessThan(before / 2);
  });

  it('keeps the mode of an existing file (no auto-vacuum): the rows go, the pages stay free', async () => {
    const file = join(dir, 'old.sqlite');
    const old = new Database(file);
    old.exec('CREATE TABLE earlier (x)');
    old.close();
    const store = SqliteEventStore.open(file);
    await store.append('usage-a-2026010100', bulky(EVENTS), 'no_stream');
    await store.deleteStream('usage-a-2026010100');
    expect(await store.readStream('usage-a-2026010100')).toEqual([]);
    await store.close();
    expect(pragma(file, 'auto_vacuum')).toBe(0);
    expect(pragma(file, 'freelist_count')).toBeGreaterThan(0);
  });

  it('deletes in the same group commit as appends made in the same tick, after them', async () => {
    const store = SqliteEventStore.open(join(dir, 'tick.sqlite'));
    await store.append('s-1', bulky(1), 'no_stream');
    const before = store.stats.batches;
    await Promise.all([store.append('s-2', bulky(1), 'no_stream'), store.deleteStream('s-1')]);
    expect(store.stats.batches).toBe(before + 1);
    expect(await store.listStreams({ prefix: 's-' })).toEqual(['s-2']);
    await store.close();
  });
});
