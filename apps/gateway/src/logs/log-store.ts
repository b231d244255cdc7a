import type { Filter, FindOptions, ReadStoreSession, SumResult } from '@tollgate/read-store';
import { LOGS, type LogRow, type LogRowParts } from './log.document';
import {
  packLog,
  packLogParts,
  storedFilter,
  storedKey,
  storedOptions,
  unpackLog,
  type StoredLog,
} from './stored-log';

/**
 * The `logs` collection in row terms: filters, sorts, groups and sums name the row's fields, rows
 * are written and read whole; stored-log.ts turns them into the stored form and back.
 */
export function logStore(store: ReadStoreSession) {
  const logs = store.collection<StoredLog>(LOGS);
  return {
    put: (row: LogRow): Promise<void> => logs.put(packLog(row)),
    putParts: (parts: LogRowParts): Promise<void> => logs.put(packLogParts(parts)),
    find: async (filter: Filter, options: FindOptions = {}): Promise<LogRow[]> =>
      (await logs.find(storedFilter(filter), storedOptions(options))).map(unpackLog),
    count: (filter: Filter): Promise<number> => logs.count(storedFilter(filter)),
    deleteMany: (filter: Filter): Promise<number> => logs.deleteMany(storedFilter(filter)),
    async sum(
      filter: Filter,
      groupBy: keyof LogRow | null,
      fields: ReadonlyArray<keyof LogRow>,
    ): Promise<SumResult[]> {
      const keys = fields.map(storedKey);
      const groups = await logs.sum(
        storedFilter(filter),
        groupBy === null ? null : storedKey(groupBy),
        keys,
      );
      return groups.map((group) => ({
        ...group,
        sums: Object.fromEntries(fields.map((field, i) => [field, group.sums[keys[i]!] ?? 0])),
      }));
    },
  };
}
