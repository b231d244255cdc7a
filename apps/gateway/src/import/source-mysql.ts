import { createConnection, type Connection, type FieldPacket } from 'mysql2/promise';
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

const quote = (name: string): string => `\`${name.replace(/`/g, '``')}\``;

/**
 * A one-api / new-api MySQL (MariaDB) database, `mysql://user:password@host:port/database`, on one
 * connection in a read-only session. BIGINT columns come as numbers (numeric text beyond 2^53),
 * tinyint(1) as 0/1, JSON as its text, datetime as Date.
 */
export class MysqlSource implements SourceEngine {
  private constructor(
    private readonly connection: Connection,
    readonly location: string,
  ) {}

  static async open(spec: string): Promise<MysqlSource> {
    const location = maskedUrl(spec);
    const url = parseSourceUrl(spec, 'MySQL');
    const password = decodeURIComponent(url.password);
    const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
    if (database === '')
      throw new ImportRefused(`${location} names no database (mysql://user:pass@host:port/db)`);
    let connection: Connection | undefined;
    try {
      connection = await createConnection({
        host: url.hostname.replace(/^\[|\]$/g, '') || 'localhost',
        port: url.port === '' ? 3306 : Number(url.port),
        user: decodeURIComponent(url.username),
        password,
        database,
        charset: 'utf8mb4',
        connectTimeout: 10_000,
        supportBigNumbers: true,
        bigNumberStrings: false,
        decimalNumbers: true,
        jsonStrings: true,
        typeCast: (field, next) =>
          field.type === 'JSON' || field.extendedFormat === 'json' ? field.string('utf8') : next(),
      });
      await connection.query('SET SESSION TRANSACTION READ ONLY');
      return new MysqlSource(connection, location);
    } catch (error) {
      await connection?.end().catch(() => undefined);
      throw new ImportRefused(
        `Cannot connect to ${location}: ${withoutPassword((error as Error).message, password)}`,
      );
    }
  }

  async tables(): Promise<Set<string>> {
    const rows = await this.select(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async columns(table: string): Promise<Set<string>> {
    const rows = await this.select(
      'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = DATABASE() AND table_name = ?',
      [table],
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async count(table: string): Promise<number> {
    const rows = await this.select(`SELECT COUNT(*) AS n FROM ${quote(table)}`);
    return Number(rows[0]?.['n'] ?? 0);
  }

  page(table: string, afterId: number, limit: number): Promise<Row[]> {
    return this.select(`SELECT * FROM ${quote(table)} WHERE id > ? ORDER BY id LIMIT ?`, [
      afterId,
      limit,
    ]);
  }

  /** In byte order of the key, as SQLite orders it (MySQL's default collation ignores case). */
  optionRows(): Promise<Row[]> {
    return this.select('SELECT `key`, `value` FROM options ORDER BY CAST(`key` AS BINARY)');
  }

  async firstUser(): Promise<Row | undefined> {
    const rows = await this.select('SELECT id, username, aff_code FROM users ORDER BY id LIMIT 1');
    return rows[0];
  }

  async close(): Promise<void> {
    await this.connection.end().catch(() => undefined);
  }

  private async select(sql: string, values: unknown[] = []): Promise<Row[]> {
    const [rows] = (await this.connection.query(sql, values)) as [Row[], FieldPacket[]];
    return rows;
  }
}
