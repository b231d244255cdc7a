import { createConnection, type Connection, type FieldPacket } from 'mysql2/promise';
import { ImportRefused, type Row } from './source-engine';
import {
  maskedUrl,
  parseSourceUrl,
  SqlServerSource,
  withoutPassword,
  type SqlDialect,
} from './source-sql-server';

const MYSQL: SqlDialect = {
  quote: (name) => `\`${name.replace(/`/g, '``')}\``,
  param: () => '?',
  schema: 'DATABASE()',
  // MySQL's default collation ignores case: byte order, as SQLite's.
  optionRowsSql: 'SELECT `key`, `value` FROM options ORDER BY CAST(`key` AS BINARY)',
};

/**
 * A one-api / new-api MySQL (MariaDB) database, `mysql://user:password@host:port/database`, on one
 * connection in a read-only session. BIGINT columns come as numbers (numeric text beyond 2^53),
 * tinyint(1) as 0/1, JSON as its text, datetime as Date.
 */
export class MysqlSource extends SqlServerSource {
  protected readonly dialect = MYSQL;

  private constructor(
    private readonly connection: Connection,
    readonly location: string,
  ) {
    super();
  }

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

  async close(): Promise<void> {
    await this.connection.end().catch(() => undefined);
  }

  protected async select(sql: string, values: unknown[] = []): Promise<Row[]> {
    const [rows] = (await this.connection.query(sql, values)) as [Row[], FieldPacket[]];
    return rows;
  }
}
