import type { Database } from 'better-sqlite3';
import type { CollectionSpec, IndexSpec } from '../read-store.port';
import { DuplicateKeyError } from '../read-store.port';
import { indexName } from '../documents/index-name';
import type { SearchIndex } from './search-narrowing';
import {
  COUNTS_TABLE,
  KEY_COLUMN_PREFIX,
  SEARCH_CONFIG_TABLE,
  counterTriggerName,
  keyColumn,
  keyExpr,
  searchContentTableName,
  searchTableName,
  splitPath,
  tableName,
  textExpr,
} from './sql-names';

/**
 * Creates one collection's table, the key columns of its indexed paths, its indexes, its document
 * counter and, when the declaration lists `search` fields, its trigram index. Runs inside
 * declare()'s transaction; idempotent, and brings a table of an earlier layout (or spec) up to this
 * one.
 */
export function declareCollection(db: Database, spec: CollectionSpec): SearchIndex | undefined {
  const table = tableName(spec.name);
  db.exec(`CREATE TABLE IF NOT EXISTS ${table} (id TEXT PRIMARY KEY, doc TEXT NOT NULL)`);
  const kept = dropUnwantedIndexes(db, spec, keyKindChanged(db, spec));
  reconcileKeyColumns(db, spec);
  createMissingIndexes(db, spec, kept);
  declareCounter(db, spec.name);
  return spec.search && spec.search.length > 0
    ? declareSearch(db, spec.name, spec.search)
    : undefined;
}

/** Drops a collection's table with its indexes, triggers, counter and search index. */
export function dropCollection(db: Database, collection: string): void {
  const table = tableName(collection);
  db.exec(`DROP TABLE IF EXISTS ${table}; DROP TABLE IF EXISTS ${searchTableName(collection)};`);
  for (const meta of [COUNTS_TABLE, SEARCH_CONFIG_TABLE]) {
    const exists = db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
      .get(meta.slice(1, -1));
    if (exists) db.prepare(`DELETE FROM ${meta} WHERE collection = ?`).run(collection);
  }
}

/** The paths of a spec's indexes that get a key column (every indexed path but `_id`), in order. */
export function keyPaths(spec: CollectionSpec): string[] {
  const paths = (spec.indexes ?? []).flatMap((index) => Object.keys(index.fields));
  return [...new Set(paths)].filter((path) => path !== '_id');
}

/**
 * The CREATE INDEX statement for a declared index: the fields' key columns (keyExpr's values, which
 * filters and sorts compare), then `id` for a non-unique index, so a sort that ends with the `_id`
 * tie-breaker is still answered in index order.
 */
export function indexStatement(
  collection: string,
  index: IndexSpec,
): { name: string; sql: string } {
  const columns = Object.entries(index.fields).map(([path, dir]) => {
    if (dir !== 1 && dir !== -1) throw new Error(`Index direction for ${path} must be 1 or -1`);
    return `${path === '_id' ? 'id' : keyColumn(path)} ${dir === 1 ? 'ASC' : 'DESC'}`;
  });
  if (!index.unique && !('_id' in index.fields)) columns.push('id ASC');
  const name = indexName(collection, index);
  const unique = index.unique ? 'UNIQUE ' : '';
  return {
    name,
    sql: `CREATE ${unique}INDEX "${name}" ON ${tableName(collection)} (${columns.join(', ')})`,
  };
}

/**
 * Makes the table's indexes exactly the declared ones, in two steps around the key columns: an index
 * the declaration no longer lists, or whose definition changed (SQLite keeps each index's CREATE
 * statement), is dropped first (a column cannot be dropped under an index); then the missing ones
 * are built. Runs inside declare()'s transaction, so a failed build (duplicates under a new unique
 * index) leaves the old indexes in place.
 */
function dropUnwantedIndexes(db: Database, spec: CollectionSpec, dropAll: boolean): Set<string> {
  const wanted = wantedIndexes(spec);
  const existing = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`,
    )
    .all(spec.name) as Array<{ name: string; sql: string }>;
  const kept = new Set<string>();
  for (const index of existing) {
    if (!dropAll && wanted.get(index.name) === index.sql) kept.add(index.name);
    else db.exec(`DROP INDEX "${index.name.replace(/"/g, '""')}"`);
  }
  return kept;
}

function createMissingIndexes(db: Database, spec: CollectionSpec, kept: Set<string>): void {
  for (const [name, sql] of wantedIndexes(spec)) {
    if (kept.has(name)) continue;
    try {
      db.exec(sql);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') {
        throw new DuplicateKeyError(spec.name, { cause: error });
      }
      throw error;
    }
  }
}

function wantedIndexes(spec: CollectionSpec): Map<string, string> {
  return new Map(
    (spec.indexes ?? []).map((index) => {
      const statement = indexStatement(spec.name, index);
      return [statement.name, statement.sql] as const;
    }),
  );
}

/** pragma_table_xinfo's `hidden` of a virtual generated column. */
const VIRTUAL_COLUMN = 2;

/** The key columns a table has: path → whether it is computed (virtual) rather than stored. */
function presentKeyColumns(db: Database, collection: string): Map<string, boolean> {
  const columns = db
    .prepare(`SELECT name, hidden FROM pragma_table_xinfo(?)`)
    .all(collection) as Array<{ name: string; hidden: number }>;
  return new Map(
    columns
      .filter((column) => column.name.startsWith(KEY_COLUMN_PREFIX))
      .map((column) => [
        column.name.slice(KEY_COLUMN_PREFIX.length),
        column.hidden === VIRTUAL_COLUMN,
      ]),
  );
}

/** Whether a key column must change between stored and computed (its indexes go first). */
function keyKindChanged(db: Database, spec: CollectionSpec): boolean {
  const computed = spec.writeOnce === true;
  return [...presentKeyColumns(db, spec.name).values()].some((virtual) => virtual !== computed);
}

/**
 * One key column per indexed path, filled from the documents when it is added (a table of an earlier
 * layout, or a path newly indexed); a column whose path is no longer indexed, or of the other kind
 * (stored / computed), is dropped, so a column that exists is always in step with the documents.
 */
function reconcileKeyColumns(db: Database, spec: CollectionSpec): void {
  const table = tableName(spec.name);
  const computed = spec.writeOnce === true;
  const present = presentKeyColumns(db, spec.name);
  const wanted = keyPaths(spec);
  for (const [path, virtual] of present) {
    if (wanted.includes(path) && virtual === computed) continue;
    db.exec(`ALTER TABLE ${table} DROP COLUMN ${keyColumn(path)}`);
    present.delete(path);
  }
  for (const path of wanted) {
    if (present.has(path)) continue;
    if (computed) {
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${keyColumn(path)} AS (${keyExpr(path)}) VIRTUAL`);
      continue;
    }
    // No declared type: no affinity, so numbers, text and blobs are kept exactly as keyExpr gives them.
    db.exec(`ALTER TABLE ${table} ADD COLUMN ${keyColumn(path)}`);
    db.exec(`UPDATE ${table} SET ${keyColumn(path)} = ${keyExpr(path)}`);
  }
}

/**
 * count() without a filter reads this row instead of walking a million-entry index. Triggers keep it
 * exact inside the same transaction as the write (an upsert's update path fires neither).
 */
function declareCounter(db: Database, collection: string): void {
  const table = tableName(collection);
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${COUNTS_TABLE} (collection TEXT PRIMARY KEY, n INTEGER NOT NULL)`,
  );
  const inserted = counterTriggerName(collection, 'ins');
  if (triggerExists(db, inserted)) return;
  // Collection names are validated identifiers, so they can stand inside a string literal.
  db.exec(`
    CREATE TRIGGER ${inserted} AFTER INSERT ON ${table} BEGIN
      UPDATE ${COUNTS_TABLE} SET n = n + 1 WHERE collection = '${collection}';
    END;
    CREATE TRIGGER ${counterTriggerName(collection, 'del')} AFTER DELETE ON ${table} BEGIN
      UPDATE ${COUNTS_TABLE} SET n = n - 1 WHERE collection = '${collection}';
    END;
    INSERT OR REPLACE INTO ${COUNTS_TABLE} (collection, n)
      VALUES ('${collection}', (SELECT COUNT(*) FROM ${table}));
  `);
}

/**
 * An FTS5 table with the trigram tokenizer over the search fields' string values, its rowid equal to
 * the collection row's rowid (the table is never VACUUMed, so rowids stay put). Triggers keep it in
 * step; the update trigger fires only when a searched field changed, so the frequent counter updates
 * (quota, request counts) never touch it. Changing the field list rebuilds it from the rows.
 */
function declareSearch(db: Database, collection: string, fields: readonly string[]): SearchIndex {
  for (const field of fields) splitPath(field); // validates
  const table = tableName(collection);
  const fts = searchTableName(collection);
  const columns = new Map(fields.map((field, i) => [field, `c${i}`]));
  const cols = [...columns.values()];
  db.exec(
    `CREATE TABLE IF NOT EXISTS ${SEARCH_CONFIG_TABLE} (collection TEXT PRIMARY KEY, fields TEXT NOT NULL)`,
  );
  // The version changes when what the index holds changes (v2: arrays' string elements too).
  const config = JSON.stringify({ v: 2, fields });
  const stored = db
    .prepare(`SELECT fields FROM ${SEARCH_CONFIG_TABLE} WHERE collection = ?`)
    .get(collection) as { fields: string } | undefined;
  if (stored?.fields !== config) {
    const trigger = (kind: string) => `"$fts_${kind}_${collection}"`;
    db.exec(`
      DROP TRIGGER IF EXISTS ${trigger('ins')};
      DROP TRIGGER IF EXISTS ${trigger('del')};
      DROP TRIGGER IF EXISTS ${trigger('upd')};
      DROP TABLE IF EXISTS ${fts};
      CREATE VIRTUAL TABLE ${fts} USING fts5(${cols.join(', ')}, tokenize = 'trigram');
      INSERT INTO ${fts} (rowid, ${cols.join(', ')})
        SELECT rowid, ${fields.map((f) => textExpr(f)).join(', ')} FROM ${table};
      CREATE TRIGGER ${trigger('ins')} AFTER INSERT ON ${table} BEGIN
        INSERT INTO ${fts} (rowid, ${cols.join(', ')})
          VALUES (new.rowid, ${fields.map((f) => textExpr(f, 'new.')).join(', ')});
      END;
      CREATE TRIGGER ${trigger('del')} AFTER DELETE ON ${table} BEGIN
        DELETE FROM ${fts} WHERE rowid = old.rowid;
      END;
      CREATE TRIGGER ${trigger('upd')} AFTER UPDATE OF doc ON ${table}
        WHEN ${fields.map((f) => `${textExpr(f, 'old.')} IS NOT ${textExpr(f, 'new.')}`).join(' OR ')}
      BEGIN
        UPDATE ${fts} SET ${fields.map((f, i) => `${cols[i]} = ${textExpr(f, 'new.')}`).join(', ')}
          WHERE rowid = new.rowid;
      END;
    `);
    db.prepare(
      `INSERT OR REPLACE INTO ${SEARCH_CONFIG_TABLE} (collection, fields) VALUES (?, ?)`,
    ).run(collection, config);
  }
  return { table: fts, contentTable: searchContentTableName(collection), rows: table, columns };
}

function triggerExists(db: Database, quotedName: string): boolean {
  return (
    db
      .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?`)
      .get(quotedName.slice(1, -1)) !== undefined
  );
}
