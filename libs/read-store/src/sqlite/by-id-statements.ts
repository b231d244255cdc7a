import { DOC_TEXT, tableName } from './sql-names';

/** The statements of every write by id, and the table's quoted name. */
export interface ByIdStatements {
  readonly table: string;
  readonly select: string;
  readonly delete: string;
  readonly upsert: string;
  readonly updateDoc: string;
  readonly upsertBinary: string;
}

/**
 * Built once per collection name, not per collection object: a session makes one per use (a
 * rebuild, one per buffered write), and the statement cache is keyed by SQL text, which a text
 * built again is hashed again to look up.
 */
const BY_ID = new Map<string, ByIdStatements>();

export function byIdStatements(name: string): ByIdStatements {
  let statements = BY_ID.get(name);
  if (!statements) {
    const table = tableName(name);
    statements = {
      table,
      select: `SELECT id, ${DOC_TEXT} AS doc FROM ${table} WHERE id = ?`,
      delete: `DELETE FROM ${table} WHERE id = ?`,
      upsert: upsertSql(table, '?'),
      updateDoc: `UPDATE ${table} SET doc = ? WHERE id = ?`,
      upsertBinary: upsertSql(table, 'jsonb(?)'),
    };
    BY_ID.set(name, statements);
  }
  return statements;
}

function upsertSql(table: string, value: string): string {
  return `INSERT INTO ${table} (id, doc) VALUES (?, ${value}) ON CONFLICT(id) DO UPDATE SET doc = excluded.doc`;
}
