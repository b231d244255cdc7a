import type { Database } from 'better-sqlite3';
import type { CollectionSpec, Filter, FindOptions } from '../read-store.port';
import { indexStatement, keyPaths } from './sqlite-schema';
import {
  SEARCH_CONFIG_TABLE,
  counterTriggerName,
  keyColumn,
  searchTableName,
  tableName,
} from './sql-names';

/**
 * Drops what an offline rebuild builds once at the end instead of row by row: the collection's
 * non-unique declared indexes and its trigram index (table and triggers), its row counter's triggers
 * (an UPDATE of the counts row per insert), and a write-once collection's computed key columns
 * (SQLite evaluates a virtual column on every insert even though it stores nothing, which made a log
 * row's insert 2.5 times as slow). Unique indexes, and the key columns under them, stay: they are
 * constraints, not only lookups. The search configuration row goes too, so the next
 * declareCollection() (the end of the rebuild, or the next start after a crash) builds all of it
 * again from the rows, as it creates every missing index, key column and counter.
 */
export function dropDeferrable(db: Database, spec: CollectionSpec): void {
  for (const index of spec.indexes ?? []) {
    if (index.unique) continue;
    const { name } = indexStatement(spec.name, index);
    db.exec(`DROP INDEX IF EXISTS "${name.replace(/"/g, '""')}"`);
  }
  for (const kind of ['ins', 'del'] as const)
    db.exec(`DROP TRIGGER IF EXISTS ${counterTriggerName(spec.name, kind)}`);
  for (const path of deferrableKeyPaths(spec))
    db.exec(`ALTER TABLE ${tableName(spec.name)} DROP COLUMN ${keyColumn(path)}`);
  if (!spec.search || spec.search.length === 0) return;
  for (const kind of ['ins', 'del', 'upd'])
    db.exec(`DROP TRIGGER IF EXISTS "$fts_${kind}_${spec.name}"`);
  db.exec(`DROP TABLE IF EXISTS ${searchTableName(spec.name)}`);
  const config = db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?`)
    .get(SEARCH_CONFIG_TABLE.slice(1, -1));
  if (config) db.prepare(`DELETE FROM ${SEARCH_CONFIG_TABLE} WHERE collection = ?`).run(spec.name);
}

/**
 * The key columns dropped with the indexes: a write-once collection's (computed, so nothing is
 * written for them later), but for those a unique index uses. A collection's stored key columns stay:
 * they are computed once per write either way.
 */
export function deferrableKeyPaths(spec: CollectionSpec): string[] {
  if (!spec.writeOnce) return [];
  const unique = new Set(
    (spec.indexes ?? []).filter((index) => index.unique).flatMap((i) => Object.keys(i.fields)),
  );
  return keyPaths(spec).filter((path) => !unique.has(path));
}

/**
 * Whether a read or write with this filter (and sort) may want a secondary index: anything but a
 * lookup by `_id` (the primary key) or a whole-collection read. A collection whose indexes are
 * deferred builds them first, so a projection that queries during the replay never scans the
 * growing table once per event.
 */
export function wantsIndexes(filter: Filter | undefined, options?: FindOptions): boolean {
  const sorted = Object.keys(options?.sort ?? {}).some((path) => path !== '_id');
  if (sorted) return true;
  if (!filter) return false;
  const paths = Object.keys(filter).filter((path) => filter[path] !== undefined);
  if (paths.length === 0) return false;
  return typeof filter['_id'] !== 'string';
}
