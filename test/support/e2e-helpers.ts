import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Response } from 'supertest';
import { openStoredEventDecoder } from '@tollgate/event-store';

// Jest-free, so the bench harness can use them too.
export { waitUntil, withTimeout } from './waiting';

/** One row of `<dataDir>/events.sqlite`, JSON columns parsed. */
export interface StoredEvent {
  readonly id: string;
  readonly position: number;
  readonly streamId: string;
  readonly revision: number;
  readonly type: string;
  readonly data: Record<string, unknown>;
  readonly metadata: Record<string, unknown>;
  /** The JSON text of data and metadata, as appended (decoded when stored compressed). */
  readonly rawData: string;
  readonly rawMetadata: string;
}

interface EventRow {
  event_id: string | Buffer;
  global_position: number;
  stream_id: string;
  stream_revision: number;
  type: string;
  data: string | Buffer;
  metadata: string | Buffer;
}

/**
 * Reads the embedded event store directly (read-only; WAL lets it run beside the live gateway).
 * Optionally filtered by stream id and/or event type; ordered by global position.
 */
/**
 * The stored events that change what someone has or is: all but the OAuth single-use marks
 * (`oauthmark-…`), which even a refused sign-in leaves so its state or code cannot be replayed.
 */
export function readStateEvents(dataDir: string): StoredEvent[] {
  return readStoredEvents(dataDir).filter((event) => !event.streamId.startsWith('oauthmark-'));
}

export function readStoredEvents(
  dataDir: string,
  where: { streamId?: string; type?: string } = {},
): StoredEvent[] {
  const db = new Database(join(dataDir, 'events.sqlite'), { readonly: true, fileMustExist: true });
  try {
    const clauses: string[] = [];
    const params: string[] = [];
    if (where.streamId !== undefined) {
      clauses.push('stream_id = ?');
      params.push(where.streamId);
    }
    if (where.type !== undefined) {
      clauses.push('type = ?');
      params.push(where.type);
    }
    const sql = `SELECT event_id, global_position, stream_id, stream_revision, type, data, metadata FROM events${
      clauses.length ? ` WHERE ${clauses.join(' AND ')}` : ''
    } ORDER BY global_position`;
    const rows = db.prepare(sql).all(...params) as EventRow[];
    const decoder = openStoredEventDecoder(db);
    return rows.map((row) => {
      const texts = decoder.texts(row);
      return {
        id: decoder.eventId(row),
        position: row.global_position,
        streamId: row.stream_id,
        revision: row.stream_revision,
        type: row.type,
        data: JSON.parse(texts.data) as Record<string, unknown>,
        metadata: JSON.parse(texts.metadata) as Record<string, unknown>,
        rawData: texts.data,
        rawMetadata: texts.metadata,
      };
    });
  } finally {
    db.close();
  }
}

export function countStoredEvents(dataDir: string): number {
  return readStoredEvents(dataDir).length;
}

/**
 * The JSON texts of every event of an event store file (none for other files): its payloads are
 * stored compressed, so a check of the stored text or bytes alone would never see a secret in them.
 */
function decodedPayloads(db: Database.Database): string[] {
  const isEventStore = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'payload_dictionaries'")
    .get();
  if (!isEventStore) return [];
  const decoder = openStoredEventDecoder(db);
  const rows = db.prepare('SELECT event_id, data, metadata FROM events').all() as EventRow[];
  return rows.flatMap((row) => {
    const texts = decoder.texts(row);
    return [texts.metadata, texts.data];
  });
}

/**
 * Every text cell of every table of a SQLite file (read-only), blobs read as UTF-8 (the event
 * store's payload dictionaries), and an event store's payloads decoded: for "this never got stored"
 * checks.
 */
export function allSqliteText(file: string): string {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
      .all() as Array<{ name: string }>;
    const parts: string[] = [];
    for (const { name } of tables) {
      for (const row of db.prepare(`SELECT * FROM "${name.replace(/"/g, '""')}"`).all() as Array<
        Record<string, unknown>
      >) {
        for (const value of Object.values(row)) {
          if (typeof value === 'string') parts.push(value);
          else if (Buffer.isBuffer(value)) parts.push(value.toString('utf8'));
        }
      }
    }
    parts.push(...decodedPayloads(db));
    return parts.join('\n');
  } finally {
    db.close();
  }
}

/**
 * The raw bytes of a SQLite database and its WAL/SHM side files, when present, then (for an event
 * store) its payloads decoded: compressed, a secret in them would not show in the raw bytes.
 */
export function sqliteFileBytes(file: string): Buffer {
  const raw = [file, `${file}-wal`, `${file}-shm`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f));
  if (!existsSync(file)) return Buffer.concat(raw);
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return Buffer.concat([...raw, Buffer.from(decodedPayloads(db).join('\n'))]);
  } finally {
    db.close();
  }
}

/** `session=<value>` from a login answer, ready for a Cookie header. */
export function sessionCookieOf(res: Response): string {
  const header = res.headers['set-cookie'] as unknown as string[] | string | undefined;
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const session = cookies.find((c) => c.startsWith('session='));
  if (!session) throw new Error('no session cookie in the answer');
  return session.split(';')[0]!;
}

/** The spec's failure envelope: HTTP 200, success false, this exact message. */
export function expectFailure(res: Response, message: string): void {
  expect({ status: res.status, body: res.body as unknown }).toEqual({
    status: 200,
    body: { success: false, message },
  });
}

/** HTTP 200 with success true (the message is shown when it is not). */
export function expectSuccess(res: Response): void {
  expect({
    status: res.status,
    success: (res.body as { success?: unknown }).success,
    message: (res.body as { message?: unknown }).message,
  }).toEqual({
    status: 200,
    success: true,
    message: '',
  });
}
