import { Client, types } from 'pg';
import { ImportRefused, type Row, type SourceEngine } from './source-engine';
import { maskedUrl, parseSourceUrl, withoutPassword } from './source-mysql';

const INT8 = 20;
const NUMERIC = 1700;
const JSON_OID = 114;
const JSONB = 3802;

/** An int8 as a number while it is exact, else its digits (row-values reads numeric text too). */
const int8 = (value: string): number | string => {
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : value;
};

/**
 * This client's parsers only (the pg module's global ones stay as they are): int8 (bigint,
 * bigserial, COUNT) and numeric (gorm's float64 `decimal`) as numbers, json/jsonb as their text
 * (the mapping reads JSON columns as text); timestamps, booleans and the rest as pg gives them.
 */
const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary'): unknown => {
    if (format === undefined || format === 'text') {
      if (oid === INT8) return int8;
      if (oid === NUMERIC) return (value: string) => Number(value);
      if (oid === JSON_OID || oid === JSONB) return (value: string) => value;
    }
    return (
      format === undefined ? types.getTypeParser(oid) : types.getTypeParser(oid, format)
    ) as unknown;
  }) as typeof types.getTypeParser,
};

const quote = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/**
 * A one-api / new-api PostgreSQL database, `postgres://` or `postgresql://user:password@host:port/
 * database` (query parameters such as `sslmode` as libpq reads them), on one client in a read-only
 * session, tables of the connection's current schema. char(n) values come blank-padded (the
 * mapping trims them).
 */
export class PostgresSource implements SourceEngine {
  private constructor(
    private readonly client: Client,
    readonly location: string,
  ) {}

  static async open(spec: string): Promise<PostgresSource> {
    const location = maskedUrl(spec);
    const url = parseSourceUrl(spec, 'PostgreSQL');
    const password = decodeURIComponent(url.password);
    const client = new Client({
      connectionString: spec,
      connectionTimeoutMillis: 10_000,
      types: typeParsers,
    });
    // A connection lost later is reported by the query that needed it, not as an uncaught event.
    client.on('error', () => undefined);
    try {
      await client.connect();
      await client.query('SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY');
      return new PostgresSource(client, location);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw new ImportRefused(
        `Cannot connect to ${location}: ${withoutPassword((error as Error).message, password)}`,
      );
    }
  }

  async tables(): Promise<Set<string>> {
    const rows = await this.select(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()',
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async columns(table: string): Promise<Set<string>> {
    const rows = await this.select(
      'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1',
      [table],
    );
    return new Set(rows.map((r) => String(r['name'])));
  }

  async count(table: string): Promise<number> {
    const rows = await this.select(`SELECT COUNT(*) AS n FROM ${quote(table)}`);
    return Number(rows[0]?.['n'] ?? 0);
  }

  page(table: string, afterId: number, limit: number): Promise<Row[]> {
    return this.select(`SELECT * FROM ${quote(table)} WHERE id > $1 ORDER BY id LIMIT $2`, [
      afterId,
      limit,
    ]);
  }

  /** In byte order of the key, as SQLite orders it (whatever the database's collation). */
  optionRows(): Promise<Row[]> {
    return this.select('SELECT "key", "value" FROM options ORDER BY "key" COLLATE "C"');
  }

  async firstUser(): Promise<Row | undefined> {
    const rows = await this.select('SELECT id, username, aff_code FROM users ORDER BY id LIMIT 1');
    return rows[0];
  }

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  private async select(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.client.query(sql, values)).rows as Row[];
  }
}
