import { spec } from '@tollgate/testing';
import { logDecider } from './log.events';

describe('logDecider', () => {
  it('records who cleared the log up to when, and how many rows that was', () => {
    spec(logDecider)
      .given([])
      .when({ type: 'ClearLogs', before: 1_700_000_000, count: 12 })
      .then([{ type: 'LogsCleared', data: { before: 1_700_000_000, count: 12 } }]);
  });
  it.each([0, -5, 1.5, Number.NaN])('rejects the target timestamp %p', (before) => {
    spec(logDecider)
      .given([])
      .when({ type: 'ClearLogs', before, count: 0 })
      .thenRejects('log.target_timestamp_invalid');
  });
});
