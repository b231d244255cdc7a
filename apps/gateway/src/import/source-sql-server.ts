import { ImportRefused, type Row, type SourceEngine } from './source-engine';

/**
 * A source URL as it may be printed: the password replaced by `***` (the URL may not parse: then
 * everything between the user name and the last `@` of the authority is masked).
 */
export function maskedUrl(spec: string): string {
  try {
    const url = new URL(spec);
    if (url.password !== '') url.password = '***';
    return url.toString();
  } catch {
    return spec.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:@/]*):[^/]*@/i, '$1:***@');
  }
}

/** A driver's message with the password (if it ever echoed it) masked. */
export function withoutPassword(message: string, password: string): string {
  return password.length >= 3 ? message.split(password).join('***') : message;
}

/** `new URL(spec)` or a refusal that never prints the password. */
export function parseSourceUrl(spec: string, engine: string): URL {
  try {
    return new URL(spec);
  } catch {
    throw new ImportRefused(`${maskedUrl(spec)} is not a valid ${engine} URL`);
  }
}

/** How one SQL server spells what the import asks of it. */
export interface SqlDialect {
  /** A quoted identifier (`key` and `group` are reserved words). */
  readonly quote: (name: string) => string;
  /** The n-th (1-based) bound parameter. */
  readonly param: (n: number) => string;
  /** The schema the connection reads (`DATABASE()`, `current_schema()`). */
  readonly schema: string;
  /** options (key, value) in byte order of the key, as SQLite orders it. */
  readonly optionRowsSql: string;
}

/**
 * A one-api / new-api database on a SQL server (MySQL/MariaDB, PostgreSQL): the engine's reads,
 * written once over `select` and the server's dialect.
 */
export abstract class SqlServerSource implements SourceEngine {
  abstract readonly location: string;
  protected abstract readonly dialect: SqlDialect;
  protected abstract select(sql: string, values?: unknown[]): Promise<Row[]>;
  abstract close(): Promise<void>;

  async tables(): Promise<Set<string>> {
    const rows = await this.select(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = ${this.dialect.schema}`,
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async columns(table: string): Promise<Set<string>> {
    const rows = await this.select(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_schema = ${this.dialect.schema} AND table_name = ${this.dialect.param(1)}`,
      [table],
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async count(table: string): Promise<number> {
    const rows = await this.select(`SELECT COUNT(*) AS n FROM ${this.dialect.quote(table)}`);
    return Number(rows[0]?.['n'] ?? 0);
  }

  page(table: string, afterId: number, limit: number): Promise<Row[]> {
    const { quote, param } = this.dialect;
    return this.select(
      `SELECT * FROM ${quote(table)} WHERE id > ${param(1)} ORDER BY id LIMIT ${param(2)}`,
      [afterId, limit],
    );
  }

  optionRows(): Promise<Row[]> {
    return this.select(this.dialect.optionRowsSql);
  }

  async firstUser(): Promise<Row | undefined> {
    const rows = await this.select('SELECT id, username, aff_code FROM users ORDER BY id LIMIT 1');
    return rows[0];
  }
}
