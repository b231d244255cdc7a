import Database from 'better-sqlite3';

export type SourceProject = 'one-api' | 'new-api';

/** A refusal the CLI prints as one clear line and ends with exit code 2. */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused';
}

type Row = Record<string, unknown>;

/**
 * A one-api / new-api SQLite database, opened read-only (the source is never written). Detection is
 * by tables and columns: both have users, tokens, channels, options; new-api's users have
 * `deleted_at` and `aff_count` (one-api's have `lark_id`), new-api's tokens `model_limits`.
 */
export class SourceDatabase {
  private constructor(
    private readonly db: Database.Database,
    readonly project: SourceProject,
  ) {}

  static open(path: string): SourceDatabase {
    let db: Database.Database;
    try {
      db = new Database(path, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new ImportRefused(`Cannot open ${path} as SQLite: ${(error as Error).message}`);
    }
    try {
      return new SourceDatabase(db, detectProject(db, path));
    } catch (error) {
      db.close();
      if (error instanceof ImportRefused) throw error;
      // "file is not a database" and friends surface on the first read.
      throw new ImportRefused(`Cannot read ${path} as SQLite: ${(error as Error).message}`);
    }
  }

  columns(table: string): Set<string> {
    return columnsOf(this.db, table);
  }

  count(table: string): number {
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM \`${table}\``).get() as { n: number };
    return row.n;
  }

  /** Rows in id order, a page at a time (keyset pagination: constant memory on large tables). */
  *rows(table: string, pageSize = 1000): Generator<Row> {
    const page = this.db.prepare(
      `SELECT * FROM \`${table}\` WHERE id > ? ORDER BY id LIMIT ${pageSize}`,
    );
    let after = -Infinity;
    for (;;) {
      const rows = page.all(after === -Infinity ? Number.MIN_SAFE_INTEGER : after) as Row[];
      for (const row of rows) yield row;
      if (rows.length < pageSize) return;
      after = Number(rows[rows.length - 1]!['id']);
    }
  }

  /** The options table (key, value; it has no id) in key order. */
  optionRows(): Row[] {
    return this.db.prepare('SELECT `key`, `value` FROM options ORDER BY `key`').all() as Row[];
  }

  /** Identifies the source across runs: project and its lowest user row (id, username, aff code). */
  fingerprintRow(): Row | undefined {
    return this.db.prepare('SELECT id, username, aff_code FROM users ORDER BY id LIMIT 1').get() as
      Row | undefined;
  }

  close(): void {
    this.db.close();
  }
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare(`PRAGMA table_info(\`${table}\`)`).all() as Array<{ name: string }>;
  return new Set(rows.map((r) => r.name));
}

/** one-api or new-api from the schema; anything else is refused. */
export function detectProject(db: Database.Database, path = 'the source'): SourceProject {
  const tables = new Set(
    (
      db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{
        name: string;
      }>
    ).map((r) => r.name),
  );
  const required = ['users', 'tokens', 'channels', 'options'];
  const missing = required.filter((t) => !tables.has(t));
  const users = tables.has('users') ? columnsOf(db, 'users') : new Set<string>();
  const tokens = tables.has('tokens') ? columnsOf(db, 'tokens') : new Set<string>();
  const core = ['id', 'username', 'password', 'role', 'status', 'quota', 'used_quota', 'aff_code'];
  const tokenCore = ['id', 'user_id', 'key', 'status', 'remain_quota', 'unlimited_quota'];
  if (
    missing.length > 0 ||
    !core.every((c) => users.has(c)) ||
    !tokenCore.every((c) => tokens.has(c))
  )
    throw new ImportRefused(
      `${path} is not a one-api/new-api database (${
        missing.length > 0
          ? `missing tables: ${missing.join(', ')}`
          : 'the users/tokens tables lack their columns'
      })`,
    );
  if (users.has('deleted_at') || users.has('aff_count') || tokens.has('model_limits'))
    return 'new-api';
  return 'one-api';
}
