import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SqliteReadStore } from './sqlite-read-store';

/** SQLite's temporary files this process holds open (unlinked at once: only /proc names them). */
function openTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => target.includes('etilqs_'));
}

const execOriginal = Database.prototype.exec;

/** A document spread over ~50 overflow pages, so that replacing it changes more than 64 KiB. */
const large = (fill: string) => ({ text: fill.repeat(200 * 1024) });

describe('SqliteReadStore with its statement journals in memory', () => {
  const dir = mkdtempSync(join(tmpdir(), 'read-store-journals-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Replaces a large document inside a transaction; the temporary files open meanwhile. */
  async function replaceLarge(journalsInMemory: boolean): Promise<string[]> {
    const store = new SqliteReadStore(join(dir, `replace-${journalsInMemory}.sqlite`), {
      journalsInMemory,
    });
    try {
      await store.declare([{ name: 'docs' }]);
      await store.collection('docs').put({ _id: 'big', ...large('a') });
      let open: string[] = [];
      await store.transaction(async (session) => {
        await session.collection('docs').put({ _id: 'big', ...large('b') });
        // A journal moved to a file stays open until the transaction ends.
        open = openTemporaryFiles();
      });
      expect(await store.collection('docs').get('big')).toEqual({ _id: 'big', ...large('b') });
      return open;
    } finally {
      await store.close();
    }
  }

  it('keeps a statement journal past 64 KiB in memory, where the default moves it to a file', async () => {
    expect(await replaceLarge(false)).not.toEqual([]);
    expect(await replaceLarge(true)).toEqual([]);
  });

  it('still undoes a statement alone, and a transaction whole', async () => {
    const store = new SqliteReadStore(join(dir, 'undo.sqlite'), { journalsInMemory: true });
    try {
      await store.declare([{ name: 'docs', indexes: [{ fields: { code: 1 }, unique: true }] }]);
      await store.collection('docs').put({ _id: 'a', code: 1, ...large('a') });
      await expect(
        store.transaction(async (session) => {
          const docs = session.collection('docs');
          await docs.put({ _id: 'a', code: 1, ...large('b') });
          // Refused by the unique index: this statement alone is undone, the one before stays.
          await expect(docs.put({ _id: 'b', code: 1 })).rejects.toThrow();
          expect(await docs.get('a')).toEqual({ _id: 'a', code: 1, ...large('b') });
          throw new Error('undone');
        }),
      ).rejects.toThrow('undone');
      expect(await store.collection('docs').get('a')).toEqual({ _id: 'a', code: 1, ...large('a') });
      expect(await store.collection('docs').get('b')).toBeNull();
    } finally {
      await store.close();
    }
  });

  it('builds indexes with its temporary data on disk, then keeps journals in memory again', async () => {
    const store = new SqliteReadStore(join(dir, 'declare.sqlite'), { journalsInMemory: true });
    // The connection's temp_store (1 on disk, 2 in memory) when each index is created.
    const seen: Array<[string, unknown]> = [];
    const exec = jest.spyOn(Database.prototype, 'exec').mockImplementation(function (
      this: Database.Database,
      sql: string,
    ) {
      if (/CREATE INDEX/i.test(sql)) seen.push([sql, this.pragma('temp_store', { simple: true })]);
      return execOriginal.call(this, sql);
    });
    try {
      await store.declare([{ name: 'docs', indexes: [{ fields: { code: 1 } }] }]);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.map(([, mode]) => mode)).toEqual(seen.map(() => 1));
      exec.mockRestore();
      // Back in memory: a large statement journal opens no file.
      await store.collection('docs').put({ _id: 'big', code: 1, ...large('a') });
      let open: string[] = [];
      await store.transaction(async (session) => {
        await session.collection('docs').put({ _id: 'big', code: 2, ...large('b') });
        open = openTemporaryFiles();
      });
      expect(open).toEqual([]);
      await expect(store.deferIndexes(['docs'])).rejects.toThrow('does not defer its indexes');
    } finally {
      exec.mockRestore();
      await store.close();
    }
  });
});
