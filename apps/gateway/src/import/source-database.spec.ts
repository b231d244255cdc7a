import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { key48, newApiDatabase, oneApiDatabase } from '@tollgate/testing/import-fixtures';
import { ImportRefused, SourceDatabase } from './source-database';

describe('SourceDatabase', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-source-'));

  it('detects one-api from the Appendix A.1 schema and reads rows in id order', () => {
    const file = oneApiDatabase(dir, {
      users: [
        { id: 3, username: 'carol', aff_code: 'c' },
        { id: 1, username: 'root', role: 100, aff_code: 'r' },
      ],
      tokens: [{ id: 1, user_id: 1, key: key48('A1') }],
    });
    const source = SourceDatabase.open(file);
    try {
      expect(source.project).toBe('one-api');
      expect(source.count('users')).toBe(2);
      expect([...source.rows('users')].map((r) => r['id'])).toEqual([1, 3]);
      expect(source.fingerprintRow()).toEqual({ id: 1, username: 'root', aff_code: 'r' });
      expect(source.columns('users').has('lark_id')).toBe(true);
    } finally {
      source.close();
    }
  });

  it('pages through a table larger than a page', () => {
    const file = oneApiDatabase(
      dir,
      { users: Array.from({ length: 25 }, (_, i) => ({ id: i + 1, username: `u${i + 1}` })) },
      'paged.db',
    );
    const source = SourceDatabase.open(file);
    try {
      expect([...source.rows('users', 10)].map((r) => r['id'])).toEqual(
        Array.from({ length: 25 }, (_, i) => i + 1),
      );
    } finally {
      source.close();
    }
  });

  it('detects new-api from the Appendix A.2 schema', () => {
    const source = SourceDatabase.open(newApiDatabase(dir));
    try {
      expect(source.project).toBe('new-api');
      expect(source.count('tokens')).toBe(0);
    } finally {
      source.close();
    }
  });

  it('refuses another SQLite database, naming what it lacks', () => {
    const file = join(dir, 'notes.db');
    const db = new Database(file);
    db.exec('CREATE TABLE notes (id integer primary key, body text)');
    db.close();
    expect(() => SourceDatabase.open(file)).toThrow(ImportRefused);
    expect(() => SourceDatabase.open(file)).toThrow(
      /not a one-api\/new-api database \(missing tables: users, tokens, channels, options\)/,
    );
  });

  it('refuses tables of those names without their columns', () => {
    const file = join(dir, 'lookalike.db');
    const db = new Database(file);
    db.exec(
      'CREATE TABLE users (id integer); CREATE TABLE tokens (id integer); CREATE TABLE channels (id integer); CREATE TABLE options (key text)',
    );
    db.close();
    expect(() => SourceDatabase.open(file)).toThrow(/lack their columns/);
  });

  it('refuses a file that is not a database, and one that does not exist', () => {
    const garbage = join(dir, 'garbage.db');
    writeFileSync(garbage, 'this is not sqlite at all '.repeat(100));
    expect(() => SourceDatabase.open(garbage)).toThrow(ImportRefused);
    expect(() => SourceDatabase.open(garbage)).toThrow(/Cannot read .* as SQLite/);
    expect(() => SourceDatabase.open(join(dir, 'missing.db'))).toThrow(/Cannot open .* as SQLite/);
  });

  it('opens the source read-only', () => {
    const file = oneApiDatabase(dir, {}, 'readonly.db');
    const source = SourceDatabase.open(file);
    try {
      expect(() =>
        (source as unknown as { db: Database.Database }).db.exec('DELETE FROM users'),
      ).toThrow(/readonly/);
    } finally {
      source.close();
    }
  });
});
