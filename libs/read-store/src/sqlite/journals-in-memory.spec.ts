import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { sqliteTemporaryFiles } from '@tollgate/testing/sqlite-temporary-files';
import type { CollectionSpec } from '../read-store.port';
import { SqliteReadStore } from './sqlite-read-store';

const execOriginal = Database.prototype.exec;
const prepareOriginal = Database.prototype.prepare;
const SIMPLE = { simple: true } as const;

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
        open = sqliteTemporaryFiles();
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

  it('sorts on disk inside a transaction, whose journals stay in memory', async () => {
    const store = new SqliteReadStore(join(dir, 'sorts.sqlite'), {
      journalsInMemory: true,
      pageCacheKiB: 64, // a sort past 1 MiB then writes its sorted runs to a temporary file
    });
    try {
      await store.declare([{ name: 'docs', indexes: [{ fields: { code: 1 } }] }]);
      await store.transaction(async (session) => {
        const docs = session.collection('docs');
        for (let i = 0; i < 10_000; i++)
          await docs.put({ _id: `d${i}`, code: i, text: `${i % 97} ${'t'.repeat(300)}` });
      });
      // The filter's regexp runs for each row while the sort takes them in: it sees the sort's file.
      const test = RegExp.prototype.test;
      let calls = 0;
      let sortFiles = 0;
      const regexp = jest.spyOn(RegExp.prototype, 'test').mockImplementation(function (
        this: RegExp,
        value: string,
      ) {
        if (++calls % 500 === 0) sortFiles = Math.max(sortFiles, sqliteTemporaryFiles().length);
        return test.call(this, value);
      });
      let journalFiles: string[] = [];
      try {
        await store.transaction(async (session) => {
          const docs = session.collection('docs');
          const sorted = await docs.find({ text: { $regex: 't$' } }, { sort: { text: -1 } });
          expect(sorted).toHaveLength(10_000);
          regexp.mockRestore();
          await docs.put({ _id: 'big', code: -1, ...large('a') });
          await docs.put({ _id: 'big', code: -1, ...large('b') });
          journalFiles = sqliteTemporaryFiles();
        });
      } finally {
        regexp.mockRestore();
      }
      expect(calls).toBeGreaterThanOrEqual(10_000);
      expect(sortFiles).toBeGreaterThan(0);
      expect(journalFiles).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('runs each whole-collection operation with its temporary data on disk', async () => {
    const spec: CollectionSpec = { name: 'docs', indexes: [{ fields: { code: 1 } }] };
    const source = new SqliteReadStore(join(dir, 'source.sqlite'));
    await source.declare([spec]);
    await source.collection('docs').put({ _id: 's1', code: 1 });
    await source.close();
    const store = new SqliteReadStore(join(dir, 'whole.sqlite'), { journalsInMemory: true });
    // The connection's temp_store (1 on disk, 2 in memory) as each operation's statements run.
    const seen = new Map<string, unknown[]>();
    const record = (db: Database.Database, sql: string) => {
      const kind = /^\s*(CREATE INDEX|DROP TABLE|DROP INDEX|INSERT INTO main)/i.exec(sql)?.[1];
      if (kind) seen.set(kind, [...(seen.get(kind) ?? []), db.pragma('temp_store', SIMPLE)]);
    };
    jest.spyOn(Database.prototype, 'exec').mockImplementation(function (
      this: Database.Database,
      sql: string,
    ) {
      record(this, sql);
      return execOriginal.call(this, sql);
    });
    jest.spyOn(Database.prototype, 'prepare').mockImplementation(function (
      this: Database.Database,
      sql: string,
    ) {
      record(this, sql);
      return prepareOriginal.call(this, sql);
    });
    try {
      await store.declare([spec]); // CREATE INDEX
      await store.copyRowsFrom(join(dir, 'source.sqlite'), [{ collection: 'docs' }]);
      await store.deferIndexes(['docs']); // DROP INDEX
      await store.buildIndexes();
      await store.drop(['docs']); // DROP TABLE, then CREATE INDEX again
      jest.restoreAllMocks();
      expect([...seen.keys()].sort()).toEqual([
        'CREATE INDEX',
        'DROP INDEX',
        'DROP TABLE',
        'INSERT INTO main',
      ]);
      for (const [kind, modes] of seen) expect([kind, modes]).toEqual([kind, modes.map(() => 1)]);
      // In memory again for the next transaction's journals.
      expect(await store.collection('docs').count()).toBe(0);
      let journalFiles: string[] = [];
      await store.transaction(async (session) => {
        await session.collection('docs').put({ _id: 'big', code: 1, ...large('a') });
        await session.collection('docs').put({ _id: 'big', code: 1, ...large('b') });
        journalFiles = sqliteTemporaryFiles();
      });
      expect(journalFiles).toEqual([]);
    } finally {
      jest.restoreAllMocks();
      await store.close();
    }
  });
});
