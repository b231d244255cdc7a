import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEventStore } from './create-event-store';
import { SqliteEventStore } from './sqlite/sqlite-event-store';

describe('createEventStore', () => {
  const root = mkdtempSync(join(tmpdir(), 'tollgate-create-store-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([undefined, '', '  '])(
    'opens SQLite at <dataDir>/events.sqlite when the URL is %p',
    async (eventStoreUrl) => {
      const dataDir = join(root, `nested-${String(eventStoreUrl?.length)}`, 'data');
      const store = await createEventStore({ eventStoreUrl, dataDir });
      try {
        expect(store).toBeInstanceOf(SqliteEventStore);
        expect(existsSync(join(dataDir, 'events.sqlite'))).toBe(true);
      } finally {
        await store.close();
      }
    },
  );
});
