import type BetterSqlite3 from 'better-sqlite3';

/** How hard each commit hits the disk. WAL + 'normal' survives process crashes, not power loss. */
export type SqliteSynchronous = 'full' | 'normal';

const SCHEMA = `
-- event_id: a canonical lowercase UUID as its 16 bytes, any other id as text (older rows: text).
-- data: a payload blob (sqlite-payload-codec.ts) with an empty metadata blob, or both as JSON text
-- (older rows, and events compression does not shrink). TEXT affinity keeps blobs as blobs.
CREATE TABLE IF NOT EXISTS events (
  global_position INTEGER PRIMARY KEY AUTOINCREMENT,
  event_id        TEXT    NOT NULL UNIQUE,
  stream_id       TEXT    NOT NULL,
  stream_revision INTEGER NOT NULL,
  type            TEXT    NOT NULL,
  data            TEXT    NOT NULL,
  metadata        TEXT    NOT NULL,
  recorded_at     INTEGER NOT NULL,
  UNIQUE (stream_id, stream_revision)
);
-- Type-filtered reads of $all (projections subscribe to a handful of types).
CREATE INDEX IF NOT EXISTS events_type_position ON events (type, global_position);
CREATE TABLE IF NOT EXISTS streams (
  stream_id TEXT    PRIMARY KEY,
  revision  INTEGER NOT NULL
) WITHOUT ROWID;
-- Preset dictionaries of the payload blobs, by event type: written once, never changed or deleted.
CREATE TABLE IF NOT EXISTS payload_dictionaries (
  id      INTEGER PRIMARY KEY,
  type    TEXT    NOT NULL,
  samples INTEGER NOT NULL,
  bytes   BLOB    NOT NULL
);
`;

/**
 * Each connection's page cache, in KiB (SQLite's default here: 16 000). A cache never gives back
 * what it has filled, and appends touch new pages all the time: the writer thread's reached the
 * default within minutes of relaying, although an append needs only the right edges of the
 * B-trees. A page dropped from it is still in the OS's file cache: a miss is a read from memory.
 */
export const PAGE_CACHE_KIB = 2048;

export function prepareDatabase(db: BetterSqlite3.Database, synchronous: SqliteSynchronous): void {
  // A new file reclaims the space of removed streams (retention) as it goes; the mode can only be
  // chosen before the first table, so an existing file keeps its own (docs/retention.md).
  if (isEmptyDatabase(db)) db.pragma('auto_vacuum = INCREMENTAL');
  // ':memory:' ignores WAL (stays 'memory'); that is fine, nothing else can open it anyway.
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
  // Another process (a CLI rebuild, a second gateway) may hold the write lock for a moment.
  db.pragma('busy_timeout = 5000');
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.exec(SCHEMA);
}

function isEmptyDatabase(db: BetterSqlite3.Database): boolean {
  return db.prepare('SELECT count(*) AS n FROM sqlite_master').pluck().get() === 0;
}
