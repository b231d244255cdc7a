import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './event-store.port';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

export interface EventStoreConfig {
  /** EVENT_STORE_URL: esdb://… or esdb+discover://… selects EventStoreDB; unset/empty = embedded SQLite. */
  readonly eventStoreUrl?: string;
  /** DATA_DIR: the SQLite file lives at <dataDir>/events.sqlite. */
  readonly dataDir: string;
  /** SQLite only: the writer thread died and appends are refused from now on (see SqliteEventStore). */
  readonly onWriterLost?: (error: Error) => void;
  /** SQLite only: how often (ms) to look for another process's appends (default 20). */
  readonly watchForeignAppendsMs?: number;
  /** SQLite only: start the writer thread with the first append (a process that only reads). */
  readonly lazyWriter?: boolean;
  /**
   * SQLite only: `send`, the writer thread signals each commit through `events.sqlite.commits`;
   * `watch`, this process looks for another's appends as soon as that file changes.
   */
  readonly commitSignal?: 'send' | 'watch';
}

/** Picks the adapter from configuration. EventStoreDB fails fast when unreachable. */
export async function createEventStore(config: EventStoreConfig): Promise<EventStore> {
  const url = config.eventStoreUrl?.trim();
  if (url) {
    if (!/^esdb(\+discover)?:\/\//.test(url)) {
      throw new Error(
        'EVENT_STORE_URL must start with esdb:// or esdb+discover:// (leave it unset for SQLite)',
      );
    }
    // Loaded only when configured: the client and gRPC are ~20 MiB a process that never uses them.
    const { connectEsdb } = await import('./esdb/connect-esdb');
    return connectEsdb(url);
  }
  mkdirSync(config.dataDir, { recursive: true });
  return SqliteEventStore.open(join(config.dataDir, 'events.sqlite'), {
    onWriterLost: config.onWriterLost,
    ...(config.watchForeignAppendsMs === undefined
      ? {}
      : { watchForeignAppendsMs: config.watchForeignAppendsMs }),
    ...(config.lazyWriter ? { startWriter: 'on-first-append' as const } : {}),
    signalCommits: config.commitSignal === 'send',
    watchCommitSignal: config.commitSignal === 'watch',
  });
}
