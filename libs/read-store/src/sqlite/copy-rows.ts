import type { Database } from 'better-sqlite3';
import { tableName } from './sql-names';

/** One collection to copy: every row, or only those with these ids. */
export interface RowCopy {
  readonly collection: string;
  readonly ids?: readonly string[];
}

const ATTACHED = 'copied_from';

/**
 * Copies collections' rows from another read-store file into `db` in one transaction, table to
 * table in SQL: no document crosses into JavaScript, so a million rows cost what SQLite's own
 * inserts do. Both sides were declared from the same specs; the columns copied are the target's
 * stored ones (generated key columns compute themselves), and the target's triggers keep its row
 * counters and search index, or its deferred build does. A row already there is replaced.
 */
export function copyRows(db: Database, file: string, copies: readonly RowCopy[]): void {
  // ATTACH is refused inside a transaction: around it, then.
  db.prepare(`ATTACH DATABASE ? AS ${ATTACHED}`).run(file);
  try {
    db.transaction(() => {
      for (const { collection, ids } of copies) {
        const table = tableName(collection);
        const columns = (db.prepare(`PRAGMA main.table_info(${table})`).all() as { name: string }[])
          .map((c) => `"${c.name.replace(/"/g, '""')}"`)
          .join(', ');
        const only = ids ? ` WHERE id IN (SELECT value FROM json_each(?))` : '';
        const params = ids ? [JSON.stringify(ids)] : [];
        // A row already there goes first by a DELETE: REPLACE would skip the triggers that keep
        // the row counter and the search index.
        db.prepare(
          `DELETE FROM main.${table} WHERE id IN (SELECT id FROM ${ATTACHED}.${table}${only})`,
        ).run(...params);
        db.prepare(
          `INSERT INTO main.${table} (${columns}) SELECT ${columns} FROM ${ATTACHED}.${table}${only}`,
        ).run(...params);
      }
    }).immediate();
  } finally {
    db.exec(`DETACH DATABASE ${ATTACHED}`);
  }
}
