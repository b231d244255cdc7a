/** A source row as its driver hands it over (values are read through row-values.ts). */
export type Row = Record<string, unknown>;

/** A refusal the CLI prints as one clear line and ends with exit code 2. */
export class ImportRefused extends Error {
  override readonly name = 'ImportRefused';
}

/**
 * One engine the source database lives in (a SQLite file, MySQL/MariaDB, PostgreSQL): reads only,
 * never a write. Each engine quotes names its own way (`key` and `group` are reserved words).
 */
export interface SourceEngine {
  /** Where the source is, printable: a MySQL/PostgreSQL password is masked. */
  readonly location: string;
  tables(): Promise<Set<string>>;
  columns(table: string): Promise<Set<string>>;
  count(table: string): Promise<number>;
  /** `SELECT * … WHERE id > afterId ORDER BY id LIMIT limit`: keyset paging, constant memory. */
  page(table: string, afterId: number, limit: number): Promise<Row[]>;
  /** The options table (key, value; it has no id) in key order. */
  optionRows(): Promise<Row[]>;
  /** The lowest users row's id, username and aff code (the source's fingerprint). */
  firstUser(): Promise<Row | undefined>;
  close(): Promise<void>;
}
