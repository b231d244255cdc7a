import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { key48, newApiDatabase, oneApiDatabase } from '@tollgate/testing/import-fixtures';
import { ImportRefused, SourceDatabase, sourceKind } from './source-database';

describe('sourceKind', () => {
  it('reads a spec the way one-api/new-api read SQL_DSN', () => {
    expect(sourceKind('/data/one-api.db')).toBe('sqlite');
    expect(sourceKind('mysql://u:p@127.0.0.1:3306/oneapi')).toBe('mysql');
    expect(sourceKind('postgres://u:p@localhost/oneapi')).toBe('postgres');
    expect(sourceKind('postgresql://u@localhost/oneapi')).toBe('postgres');
  });
});

describe('SourceDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-source-'));

  const all = async (rows: AsyncIterable<Record<string, unknown>>) => {
    const out: unknown[] = [];
    for await (const row of rows) out.push(row['id']);
    return out;
  };

  it('detects one-api from the Appendix A.1 schema and reads rows in id order', async () => {
    const file = oneApiDatabase(dir, {
      users: [
        { id: 3, username: 'carol', aff_code: 'c' },
        { id: 1, username: 'root', role: 100, aff_code: 'r' },
      ],
      tokens: [{ id: 1, user_id: 1, key: key48('A1') }],
    });
    const source = await SourceDatabase.open(file);
    try {
      expect(source.project).toBe('one-api');
      expect(await source.count('users')).toBe(2);
      expect(await all(source.rows('users'))).toEqual([1, 3]);
      expect(await all(source.rows('users', 1000, 1))).toEqual([3]);
      expect(await source.fingerprintRow()).toEqual({ id: 1, username: 'root', aff_code: 'r' });
      expect((await source.columns('users')).has('lark_id')).toBe(true);
      expect(source.hasTable('logs')).toBe(true);
      expect(source.hasTable('midjourneys')).toBe(false);
      expect(source.version).toBe('schema with channels.config, tokens.subnet');
    } finally {
      await source.close();
    }
  });

  it('pages through a table larger than a page', async () => {
    const file = oneApiDatabase(
      dir,
      { users: Array.from({ length: 25 }, (_, i) => ({ id: i + 1, username: `u${i + 1}` })) },
      'paged.db',
    );
    const source = await SourceDatabase.open(file);
    try {
      expect(await all(source.rows('users', 10))).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    } finally {
      await source.close();
    }
  });

  it('detects new-api from the Appendix A.2 schema', async () => {
    const source = await SourceDatabase.open(newApiDatabase(dir));
    try {
      expect(source.project).toBe('new-api');
      expect(await source.count('tokens')).toBe(0);
      expect(source.hasTable('midjourneys')).toBe(true);
      // No setups row: the telling columns of its schema.
      expect(source.version).toMatch(/^schema with channels\.tag, .*tokens\.model_limits/);
    } finally {
      await source.close();
    }
  });

  it("reads new-api's version from its setups row", async () => {
    const file = newApiDatabase(dir, {}, 'with-setup.db');
    const db = new Database(file);
    db.prepare(
      "INSERT INTO setups (id, version, initialized_at) VALUES (1, 'v0.6.8.2', 1745000000)",
    ).run();
    db.close();
    const source = await SourceDatabase.open(file);
    try {
      expect(source.version).toBe('v0.6.8.2');
    } finally {
      await source.close();
    }
  });

  it('refuses another SQLite database, naming what it lacks', async () => {
    const file = join(dir, 'notes.db');
    const db = new Database(file);
    db.exec('CREATE TABLE notes (id integer primary key, body text)');
    db.close();
    await expect(SourceDatabase.open(file)).rejects.toThrow(ImportRefused);
    await expect(SourceDatabase.open(file)).rejects.toThrow(
      /not a one-api\/new-api database \(missing tables: users, tokens, channels, options\)/,
    );
  });

  it('refuses tables of those names without their columns', async () => {
    const file = join(dir, 'lookalike.db');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE users (id integer); CREATE TABLE tokens (id integer); CREATE TABLE channels (id integer); CREATE TABLE options (key text)',
    );
    db.close();
    await expect(SourceDatabase.open(file)).rejects.toThrow(/lack their columns/);
  });

  it('refuses a file that is not a database, and one that does not exist', async () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'this is not sqlite at all '.repeat(100));
    await expect(SourceDatabase.open(garbage)).rejects.toThrow(ImportRefused);
    await expect(SourceDatabase.open(garbage)).rejects.toThrow(/Cannot read .* as SQLite/);
    await expect(SourceDatabase.open(join(dir, 'missing.db'))).rejects.toThrow(
      /Cannot open .* as SQLite/,
    );
  });

  it('opens the source read-only', async () => {
    const file = oneApiDatabase(dir, {}, 'readonly.db');
    const source = await SourceDatabase.open(file);
    try {
      const engine = (source as unknown as { engine: { db: Database.Database } }).engine;
      expect(() => engine.db.exec('DELETE FROM users')).toThrow(/readonly/);
    } finally {
      await source.close();
    }
  });
});
