import type BetterSqlite3 from 'better-sqlite3';
import type { RecordedEvent } from '../event-store.port';
import { DictionaryCache } from './sqlite-dictionaries';
import { payloadCodec, type PayloadTexts } from './sqlite-payload-codec';
import type { EventRow } from './sqlite-rows';

/** The columns of an events row that hold the event id and the payload, in either format. */
export type StoredColumns = Pick<EventRow, 'event_id' | 'data' | 'metadata'>;

/**
 * Turns rows of the events table back into what was appended: payload blobs are inflated with
 * their dictionary, 16-byte ids become UUID text; rows written as text are read as they are. For
 * anything that reads the table itself (tests, probes): the format has this one reader.
 */
export class StoredEventDecoder {
  private readonly codec = payloadCodec();
  private readonly dictionaries: DictionaryCache;
  private readonly dictionaryBytes = (id: number): Buffer => this.dictionaries.bytes(id);

  constructor(db: BetterSqlite3.Database) {
    this.dictionaries = new DictionaryCache(db);
  }

  /** The JSON texts of the row's metadata and data, as the appender serialised them. */
  texts(row: StoredColumns): PayloadTexts {
    if (typeof row.data === 'string') return { data: row.data, metadata: String(row.metadata) };
    return this.codec.decode(row.data, this.dictionaryBytes);
  }

  eventId(row: StoredColumns): string {
    return this.codec.eventIdOf(row.event_id);
  }

  toEvent(row: EventRow): RecordedEvent {
    const texts = this.texts(row);
    return {
      id: this.eventId(row),
      type: row.type,
      data: JSON.parse(texts.data) as unknown,
      metadata: JSON.parse(texts.metadata) as Record<string, unknown>,
      streamId: row.stream_id,
      revision: Number(row.stream_revision),
      position: { commit: row.global_position, prepare: row.global_position },
      recordedAt: new Date(Number(row.recorded_at)),
    };
  }
}

/** A decoder for rows read from `db` (an events.sqlite connection, read-only is enough). */
export function openStoredEventDecoder(db: BetterSqlite3.Database): StoredEventDecoder {
  return new StoredEventDecoder(db);
}
