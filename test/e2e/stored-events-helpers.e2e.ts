import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { allSqliteText, readStoredEvents, sqliteFileBytes } from '../support/e2e-helpers';

/**
 * The helpers the "never stored" checks use see inside the event log's compressed payloads: without
 * that, every such check would pass whatever the log held.
 */
describe('e2e helpers on a compressed event log', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-helpers-'));
  const SECRET = `secret-${randomUUID()}`;

  beforeAll(async () => {
    const store = SqliteEventStore.open(join(dataDir, 'events.sqlite'));
    const events = Array.from({ length: 4 }, (_, i) => ({
      id: randomUUID(),
      type: 'Noted',
      data: { note: i === 2 ? SECRET : `plain note ${i}`, padding: 'x'.repeat(200) },
      metadata: { schemaVersion: 1 },
    }));
    await store.append('notes-1', events, 'no_stream');
    await store.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('finds a secret held only in a compressed payload', () => {
    const file = join(dataDir, 'events.sqlite');
    const rawBytes = Buffer.concat(
      [file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
    );
    // Compressed: the file's own bytes do not show it.
    expect(rawBytes.includes(SECRET)).toBe(false);
    expect(sqliteFileBytes(file).includes(SECRET)).toBe(true);
    expect(allSqliteText(file)).toContain(SECRET);
    const stored = readStoredEvents(dataDir, { type: 'Noted' });
    expect(stored[2]?.rawData).toContain(SECRET);
    expect(stored[2]?.data['note']).toBe(SECRET);
  });
});
