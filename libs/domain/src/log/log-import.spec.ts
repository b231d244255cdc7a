import { spec } from '@tollgate/testing';
import type { ImportedLog } from './log-import';
import { logImportDecider } from './log-import';

const log = (rowId: number, extra: Partial<ImportedLog> = {}) => ({
  type: 2,
  createdAt: 1_700_000_000 + rowId,
  userId: 2,
  username: 'alice',
  tokenName: 'cli',
  tokenId: 7,
  modelName: 'gpt-4o',
  quota: 150,
  promptTokens: 10,
  completionTokens: 20,
  useTime: 1,
  isStream: false,
  channelId: 3,
  group: 'default',
  content: '',
  other: '',
  requestId: '',
  ...extra,
  source: { project: 'new-api' as const, table: 'logs', rowId, importedAt: '2026-11-26T00:00:00Z' },
});

describe('logImportDecider', () => {
  it('imports a batch as one LogImported per row, in the source order', () => {
    spec(logImportDecider)
      .given([])
      .when({ type: 'ImportLogs', logs: [log(1), log(4, { type: 1, quota: 500 })] })
      .then([
        { type: 'LogImported', data: log(1) },
        { type: 'LogImported', data: log(4, { type: 1, quota: 500 }) },
      ]);
  });

  it('imports nothing twice: rows up to the last imported source id decide nothing', () => {
    spec(logImportDecider)
      .given([
        { type: 'LogImported', data: log(1) },
        { type: 'LogImported', data: log(4) },
      ])
      .when({ type: 'ImportLogs', logs: [log(3), log(4), log(5)] })
      .then([{ type: 'LogImported', data: log(5) }]);
  });

  it('a batch already imported whole decides nothing', () => {
    spec(logImportDecider)
      .given([{ type: 'LogImported', data: log(9) }])
      .when({ type: 'ImportLogs', logs: [log(8), log(9)] })
      .then([]);
  });
});
