import type { Database } from 'better-sqlite3';
import type { CollectionSpec, Filter, FindOptions } from '../read-store.port';
import { indexStatement } from './sqlite-schema';
import { SEARCH_CONFIG_TABLE, searchTableName } from './sql-names';

/**
 * Drops what an offline rebuild builds once at the end instead of row by row: the collection's
 * non-unique declared indexes and its trigram index (table and triggers). Unique indexes stay: they
 * are constraints, not only lookups. The search configuration row goes too, so the next
 * declareCollection() (the end of the rebuild, or the next start after a crash) rebuilds the
 * trigram index from the rows, as it creates every missing index.
 */
export function dropDeferrableIndexes(db: Database, spec: CollectionSpec): void {
  for (const index of spec.indexes ?? []) {
    if (index.unique) continue;
    const { name } = indexStatement(spec.name, index);
    db.exec(`DROP INDEX IF EXISTS "${name.replace(/"/g, '""')}"`);
  }
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
