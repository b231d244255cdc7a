import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadStore } from './sqlite-read-store';

describe('SqliteReadStore.backup', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'copy-database-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const rows = (path: string) => {
    const db = new Database(path, { readonly: true });
    const ids = (db.prepare('SELECT id FROM "docs" ORDER BY id').all() as { id: string }[]).map(
      (r) => r.id,
    );
    db.close();
    return ids;
  };

  it('copies what is committed, never a transaction still open (the writer keeps going)', async () => {
    const store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.declare([{ name: 'docs' }]);
    await store.collection('docs').put({ _id: 'committed' });
    let copied = false;
    const open = store.transaction(async (session) => {
      await session.collection('docs').put({ _id: 'rolled-back' });
      const copy = store.backup(join(dir, 'copy.sqlite'));
      await copy;
      copied = true;
      throw new Error('roll back');
    });
    await expect(open).rejects.toThrow('roll back');
    expect(copied).toBe(true); // finished while the transaction was open
    await store.collection('docs').put({ _id: 'later' });
    await store.close();
    expect(rows(join(dir, 'copy.sqlite'))).toEqual(['committed']);
  });

  it('closing the store stops a copy under way', async () => {
    const store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.declare([{ name: 'docs' }]);
    const copy = store.backup(join(dir, 'copy.sqlite'));
    await store.close();
    await expect(copy).rejects.toThrow(/stopped|Copying/);
  });

  it('refuses an in-memory store and an existing destination', async () => {
    const memory = new SqliteReadStore(':memory:');
    await expect(memory.backup(join(dir, 'x.sqlite'))).rejects.toThrow('in-memory');
    await memory.close();
    const store = new SqliteReadStore(join(dir, 'read.sqlite'));
    await store.declare([{ name: 'docs' }]);
    await store.backup(join(dir, 'copy.sqlite'));
    await expect(store.backup(join(dir, 'copy.sqlite'))).rejects.toThrow(/Copying/);
    await store.close();
  });
});
