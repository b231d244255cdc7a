import { MysqlSource } from './source-mysql';
import { PostgresSource } from './source-postgres';
import { SqliteSource } from './source-sqlite';
import { ImportRefused, type Row, type SourceEngine } from './source-engine';

export { ImportRefused } from './source-engine';
export type { Row } from './source-engine';

export type SourceProject = 'one-api' | 'new-api';

/** The kind of source a spec names, by one-api/new-api's own `SQL_DSN` rules (notes 1.1). */
export function sourceKind(spec: string): 'sqlite' | 'mysql' | 'postgres' {
  if (/^postgres(ql)?:\/\//i.test(spec)) return 'postgres';
  if (/^mysql:\/\//i.test(spec)) return 'mysql';
  return 'sqlite';
}

/**
 * A one-api / new-api database, read-only, whatever engine holds it. Detection is by tables and
 * columns: both have users, tokens, channels, options; new-api's users have `deleted_at` and
 * `aff_count` (one-api's have `lark_id`), new-api's tokens `model_limits`.
 */
export class SourceDatabase {
  private constructor(
    private readonly engine: SourceEngine,
    readonly project: SourceProject,
    private readonly tableNames: ReadonlySet<string>,
    /** What the schema says of the version (new-api's `setups` row, else its telling columns). */
    readonly version = '',
  ) {}

  /** `spec`: a SQLite file path, `mysql://…` or `postgres://…`. */
  static async open(spec: string): Promise<SourceDatabase> {
    const engine = await openEngine(spec);
    try {
      const tables = await engine.tables();
      const project = await detectProject(engine, tables);
      return new SourceDatabase(engine, project, tables, await detectVersion(engine, tables));
    } catch (error) {
      await engine.close();
      throw error;
    }
  }

  /**
   * A separate logs database (one-api/new-api's `LOG_SQL_DSN`): only its `logs` table is read, as
   * the main source's project's.
   */
  static async openLogs(spec: string, project: SourceProject): Promise<SourceDatabase> {
    const engine = await openEngine(spec);
    try {
      const tables = await engine.tables();
      if (!tables.has('logs'))
        throw new ImportRefused(
          `${engine.location} has no logs table (--logs names the log database)`,
        );
      return new SourceDatabase(engine, project, tables);
    } catch (error) {
      await engine.close();
      throw error;
    }
  }

  /** Where the source is (printable: no password). */
  get location(): string {
    return this.engine.location;
  }

  hasTable(table: string): boolean {
    return this.tableNames.has(table);
  }

  columns(table: string): Promise<Set<string>> {
    return this.engine.columns(table);
  }

  count(table: string): Promise<number> {
    return this.engine.count(table);
  }

  /**
   * Rows in id order after `afterId`, a page at a time (keyset paging: constant memory). By
   * default from the lowest id, so a row with an id that is not positive is read, and reported.
   */
  async *rows(
    table: string,
    pageSize = 1000,
    afterId = Number.MIN_SAFE_INTEGER,
  ): AsyncGenerator<Row> {
    let after = afterId;
    for (;;) {
      const rows = await this.engine.page(table, after, pageSize);
      for (const row of rows) yield row;
      if (rows.length < pageSize) return;
      after = Number(rows[rows.length - 1]!['id']);
    }
  }

  optionRows(): Promise<Row[]> {
    return this.engine.optionRows();
  }

  fingerprintRow(): Promise<Row | undefined> {
    return this.engine.firstUser();
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}

async function openEngine(spec: string): Promise<SourceEngine> {
  switch (sourceKind(spec)) {
    case 'sqlite':
      return SqliteSource.open(spec);
    case 'mysql':
      return MysqlSource.open(spec);
    case 'postgres':
      return PostgresSource.open(spec);
  }
}

/** Columns that came with later releases of either project: the schema tells how recent it is. */
const TELLING_COLUMNS: ReadonlyArray<readonly [table: string, column: string]> = [
  ['channels', 'config'],
  ['channels', 'tag'],
  ['channels', 'param_override'],
  ['tokens', 'subnet'],
  ['tokens', 'model_limits'],
  ['users', 'setting'],
  ['users', 'linux_do_id'],
];

/**
 * The source's version as far as the database records it: new-api writes its version into
 * `setups` at set-up; one-api records none, so the telling columns present are named instead.
 */
export async function detectVersion(
  engine: SourceEngine,
  tables: ReadonlySet<string>,
): Promise<string> {
  if (tables.has('setups')) {
    const rows = await engine.page('setups', Number.MIN_SAFE_INTEGER, 100);
    const version = rows.length > 0 ? rows[rows.length - 1]!['version'] : undefined;
    if (typeof version === 'string' && version.trim() !== '') return version.trim();
  }
  const present: string[] = [];
  for (const [table, column] of TELLING_COLUMNS)
    if (tables.has(table) && (await engine.columns(table)).has(column))
      present.push(`${table}.${column}`);
  return present.length > 0 ? `schema with ${present.join(', ')}` : 'schema without later columns';
}

/** one-api or new-api from the schema; anything else is refused. */
export async function detectProject(
  engine: SourceEngine,
  tables: ReadonlySet<string>,
): Promise<SourceProject> {
  const required = ['users', 'tokens', 'channels', 'options'];
  const missing = required.filter((t) => !tables.has(t));
  const users = tables.has('users') ? await engine.columns('users') : new Set<string>();
  const tokens = tables.has('tokens') ? await engine.columns('tokens') : new Set<string>();
  const core = ['id', 'username', 'password', 'role', 'status', 'quota', 'used_quota', 'aff_code'];
  const tokenCore = ['id', 'user_id', 'key', 'status', 'remain_quota', 'unlimited_quota'];
  if (
    missing.length > 0 ||
    !core.every((c) => users.has(c)) ||
    !tokenCore.every((c) => tokens.has(c))
  )
    throw new ImportRefused(
      `${engine.location} is not a one-api/new-api database (${
        missing.length > 0
          ? `missing tables: ${missing.join(', ')}`
          : 'the users/tokens tables lack their columns'
      })`,
    );
  if (users.has('deleted_at') || users.has('aff_count') || tokens.has('model_limits'))
    return 'new-api';
  return 'one-api';
}
