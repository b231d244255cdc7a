import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import { IMPORTED_LOGS_STREAM } from '@tollgate/domain';
import { newApiDatabase } from '@tollgate/testing/import-fixtures';
import { SecretBox } from '../infrastructure/secret-box';
import { importLogs } from './import-logs';
import { newReport } from './import-report';
import { ImportWriter } from './import-writer';
import { sourceChannelScrubbers } from './log-key-scrubbers';
import { SourceDatabase } from './source-database';

const AT = '2026-01-15T08:00:00.000Z';
const FIRST = 'sk-source-first-0123456789';
const SECOND = 'sk-source-second-9876543210';

describe("imported logs: the source channels' keys in its error rows", () => {
  it('masks them in the error rows of their channel', async () => {
    const file = newApiDatabase(mkdtempSync(join(tmpdir(), 'tollgate-logkeys-')), {
      channels: [{ id: 7, type: 1, key: `${FIRST}\n${SECOND}`, name: 'main', models: 'gpt-4o' }],
      logs: [
        {
          id: 1,
          user_id: 1,
          created_at: 1_700_000_000,
          type: 5,
          channel_id: 7,
          content: `Incorrect API key provided: Bearer ${SECOND} (status 401)`,
        },
        {
          id: 2,
          user_id: 1,
          created_at: 1_700_000_060,
          type: 2,
          channel_id: 7,
          content: '模型倍率 1.00，补全倍率 1.00',
        },
        {
          id: 3,
          user_id: 1,
          created_at: 1_700_000_120,
          type: 5,
          channel_id: 9,
          content: `no such channel ${FIRST}`,
        },
      ],
    });
    const source = await SourceDatabase.open(file);
    const store = SqliteEventStore.open(':memory:');
    try {
      const keys = await sourceChannelScrubbers(source, AT);
      expect([...keys.keys()]).toEqual([7]);
      const writer = new ImportWriter(store, new SecretBox('s'), 'new-api', 'f'.repeat(32));
      const report = newReport(file, 'new-api', false, ['logs']);
      await importLogs(source, 'new-api', writer, report, () => undefined, keys);
      const contents = (await store.readStream(IMPORTED_LOGS_STREAM)).map(
        (event) => (event.data as { content: string }).content,
      );
      expect(contents).toEqual([
        'Incorrect API key provided: Bearer *** (status 401)',
        // Not an error row: the gateway's own text, imported as the source wrote it.
        '模型倍率 1.00，补全倍率 1.00',
        // The row names a channel the source does not have: no key to mask with.
        `no such channel ${FIRST}`,
      ]);
    } finally {
      await source.close();
      await store.close();
    }
  });
});
