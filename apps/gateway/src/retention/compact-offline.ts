import { join } from 'node:path';
import type { ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../config/app-config';
import { openStores } from '../infrastructure/open-stores';
import { OPTIONS, optionsProjection, type OptionDocument } from '../options/options.projection';
import { ARCHIVE_FOLDER } from './archive-segment';
import { compactUsage, type CompactedStream } from './compaction-pass';
import { RETENTION_OPTION } from './retention.service';

/**
 * `cli.js usage:compact [--days N]`: one compaction pass with the gateway stopped (openStores
 * holds DATA_DIR alone). Without `--days`, the `ReceiptRetentionDays` option as recorded.
 */
export async function compactOffline(
  config: AppConfig,
  days: number | undefined,
  now = Date.now,
): Promise<{ days: number; compacted: CompactedStream[] }> {
  const stores = await openStores(config);
  try {
    const retentionDays = days ?? (await recordedRetentionDays(stores.readStore));
    const compacted = await compactUsage({
      store: stores.eventStore,
      archiveFolder: join(config.dataDir, ARCHIVE_FOLDER),
      retentionDays,
      now,
    });
    return { days: retentionDays, compacted };
  } finally {
    await stores.close();
  }
}

async function recordedRetentionDays(readStore: ReadStore): Promise<number> {
  // Reads only: the indexes are the projector's to reconcile.
  await readStore.declare(optionsProjection.collections, { reconcileIndexes: false });
  const [doc] = await readStore
    .collection<OptionDocument>(OPTIONS)
    .find({ key: RETENTION_OPTION }, { limit: 1 });
  const days = Number(doc?.['value'] ?? 0);
  return Number.isInteger(days) && days > 0 ? days : 0;
}

/** `--days N` from the arguments: undefined when absent, an error when not a whole number ≥ 0. */
export function parseDaysArgument(args: readonly string[]): number | undefined {
  const at = args.indexOf('--days');
  if (at < 0) return undefined;
  const text = args[at + 1] ?? '';
  if (!/^\d+$/.test(text))
    throw new Error(`--days takes a whole number of days (0 or more), not "${text}"`);
  return Number(text);
}
