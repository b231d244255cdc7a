import { Client, types } from 'pg';
import { ImportRefused, type Row } from './source-engine';
import {
  maskedUrl,
  parseSourceUrl,
  SqlServerSource,
  withoutPassword,
  type SqlDialect,
} from './source-sql-server';

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

const POSTGRES: SqlDialect = {
  quote: (name) => `"${name.replace(/"/g, '""')}"`,
  param: (n) => `$${n}`,
  schema: 'current_schema()',
  // Byte order whatever the database's collation, as SQLite's.
  optionRowsSql: 'SELECT "key", "value" FROM options ORDER BY "key" COLLATE "C"',
};

/**
 * A one-api / new-api PostgreSQL database, `postgres://` or `postgresql://user:password@host:port/
 * database` (query parameters such as `sslmode` as libpq reads them), on one client in a read-only
 * session, tables of the connection's current schema. char(n) values come blank-padded (the
 * mapping trims them).
 */
export class PostgresSource extends SqlServerSource {
  protected readonly dialect = POSTGRES;

  private constructor(
    private readonly client: Client,
    readonly location: string,
  ) {
    super();
  }

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

  async close(): Promise<void> {
    await this.client.end().catch(() => undefined);
  }

  protected async select(sql: string, values: unknown[] = []): Promise<Row[]> {
    return (await this.client.query(sql, values)).rows as Row[];
  }
}
