import type Database from 'better-sqlite3';
import type { EventFilter, ReadStreamOptions, RecordedEvent } from '../event-store.port';
import { EVENT_COLUMNS, NO_LIMIT, filterToSql, type EventRow } from './sqlite-rows';
import { StoredEventDecoder } from './sqlite-stored-events';

const MAX_REVISION = 9223372036854775807n;

/** The highest global position SQLite can hold: "no upper bound" for readAfter. */
export const MAX_POSITION = 9223372036854775807n;

/**
 * The store's reads, on the connection of this thread (WAL: it sees every commit while the writer
 * thread works). Statements are prepared once; $all reads by filter are cached per filter shape.
 */
export class SqliteEventReads {
  private readonly selectRevision: Database.Statement<[string], { revision: bigint }>;
  private readonly selectForwards: Database.Statement<[string, number | bigint, number], EventRow>;
  private readonly selectBackwards: Database.Statement<[string, number | bigint, number], EventRow>;
  private readonly selectHead: Database.Statement<[], { head: bigint | null }>;
  private readonly readAllStatements = new Map<string, Database.Statement<unknown[], EventRow>>();
  private readonly decoder: StoredEventDecoder;
  private readonly toEvent = (row: EventRow): RecordedEvent => this.decoder.toEvent(row);

  constructor(private readonly db: Database.Database) {
    this.decoder = new StoredEventDecoder(db);
    this.selectRevision = db
      .prepare<[string], { revision: bigint }>('SELECT revision FROM streams WHERE stream_id = ?')
      .safeIntegers(true);
    this.selectForwards = db
      .prepare<[string, number | bigint, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND stream_revision >= ? ORDER BY stream_revision LIMIT ?`,
      )
      .safeIntegers(true);
    this.selectBackwards = db
      .prepare<[string, number | bigint, number], EventRow>(
        `SELECT ${EVENT_COLUMNS} FROM events WHERE stream_id = ? AND stream_revision <= ? ORDER BY stream_revision DESC LIMIT ?`,
      )
      .safeIntegers(true);
    this.selectHead = db
      .prepare<[], { head: bigint | null }>('SELECT max(global_position) AS head FROM events')
      .safeIntegers(true);
  }

  stream(streamId: string, options: ReadStreamOptions): RecordedEvent[] {
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision ?? (backwards ? 'end' : 'start');
    const limit = options.maxCount ?? NO_LIMIT;
    if (limit === 0) return [];
    if (backwards) {
      const upTo = from === 'end' ? MAX_REVISION : from === 'start' ? 0 : from;
      return this.selectBackwards.all(streamId, upTo, limit).map(this.toEvent);
    }
    if (from === 'end') return [];
    return this.selectForwards.all(streamId, from === 'start' ? 0 : from, limit).map(this.toEvent);
  }

  revision(streamId: string): number | null {
    const row = this.selectRevision.get(streamId);
    return row ? Number(row.revision) : null;
  }

  /** Ids of the streams that exist (a deleted stream has no row) starting with `prefix`. */
  streamIds(prefix: string): string[] {
    if (prefix === '')
      return this.db.prepare('SELECT stream_id FROM streams').pluck().all() as string[];
    // A range on the primary key: every id that starts with the prefix sorts inside it.
    const last = prefix.charCodeAt(prefix.length - 1);
    const end = prefix.slice(0, -1) + String.fromCharCode(last + 1);
    return this.db
      .prepare('SELECT stream_id FROM streams WHERE stream_id >= ? AND stream_id < ?')
      .pluck()
      .all(prefix, end) as string[];
  }

  /** The global position of the last committed event, null on an empty store. */
  head(): bigint | null {
    return this.selectHead.get()?.head ?? null;
  }

  /** Events of $all after `after`, up to and including `upTo`, matching `filter`, at most `limit`. */
  after(
    after: bigint,
    filter: EventFilter | undefined,
    limit: number,
    upTo: bigint,
  ): RecordedEvent[] {
    const sql = filterToSql(filter);
    let statement = this.readAllStatements.get(sql.key);
    if (!statement) {
      statement = this.db
        .prepare<unknown[], EventRow>(
          `SELECT ${EVENT_COLUMNS} FROM events WHERE global_position > ? AND global_position <= ?${sql.where} ORDER BY global_position LIMIT ?`,
        )
        .safeIntegers(true);
      this.readAllStatements.set(sql.key, statement);
    }
    return statement.all(after, upTo, ...sql.params, limit).map(this.toEvent);
  }
}
