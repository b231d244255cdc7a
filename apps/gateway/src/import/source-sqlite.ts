import Database from 'better-sqlite3';
import { ImportRefused, type Row, type SourceEngine } from './source-engine';

/** A one-api / new-api SQLite file, opened read-only (the source is never written). */
export class SqliteSource implements SourceEngine {
  private constructor(
    private readonly db: Database.Database,
    readonly location: string,
  ) {}

  static open(path: string): SqliteSource {
    try {
      return new SqliteSource(new Database(path, { readonly: true, fileMustExist: true }), path);
    } catch (error) {
      throw new ImportRefused(`Cannot open ${path} as SQLite: ${(error as Error).message}`);
    }
  }

  async tables(): Promise<Set<string>> {
    const rows = this.read(() =>
      this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all(),
    ) as Array<{ name: string }>;
    return new Set(rows.map((r) => r.name));
  }

  async columns(table: string): Promise<Set<string>> {
    const rows = this.db.prepare(`PRAGMA table_info(\`${table}\`)`).all() as Array<{
      name: string;
    }>;
    return new Set(rows.map((r) => r.name));
  }

  async count(table: string): Promise<number> {
    return (this.db.prepare(`SELECT COUNT(*) AS n FROM \`${table}\``).get() as { n: number }).n;
  }

  async page(table: string, afterId: number, limit: number): Promise<Row[]> {
    return this.db
      .prepare(`SELECT * FROM \`${table}\` WHERE id > ? ORDER BY id LIMIT ?`)
      .all(afterId, limit) as Row[];
  }

  async optionRows(): Promise<Row[]> {
    return this.db.prepare('SELECT `key`, `value` FROM options ORDER BY `key`').all() as Row[];
  }

  async firstUser(): Promise<Row | undefined> {
    return this.db.prepare('SELECT id, username, aff_code FROM users ORDER BY id LIMIT 1').get() as
      Row | undefined;
  }

  async close(): Promise<void> {
    this.db.close();
  }

  /** "file is not a database" and friends surface on the first read. */
  private read<T>(query: () => T): T {
    try {
      return query();
    } catch (error) {
      throw new ImportRefused(
        `Cannot read ${this.location} as SQLite: ${(error as Error).message}`,
      );
    }
  }
}
