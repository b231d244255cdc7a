import type { IndexSpec } from '../read-store.port';

/** One naming scheme for both adapters; the unique flag is part of the name so changing it adds a new index. */
export function indexName(collection: string, index: IndexSpec): string {
  const parts = Object.entries(index.fields).map(
    ([field, dir]) => `${field.replace(/[^A-Za-z0-9_]/g, '_')}_${dir === 1 ? 'a' : 'd'}`,
  );
  if (parts.length === 0) throw new Error(`Index on ${collection} has no fields`);
  return `ix_${collection}__${parts.join('__')}${index.unique ? '__u' : ''}`;
}
