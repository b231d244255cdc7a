import { usageStreamId } from './usage.events';
import { boundedFailureMessage, FAILURE_MESSAGE_MAX } from './request-failed.events';

describe('usageStreamId', () => {
  it('partitions by process and UTC hour', () => {
    expect(usageStreamId('p1', new Date('2026-11-23T17:05:09Z'))).toBe('usage-p1-2026112317');
    expect(usageStreamId('p1', new Date('2026-11-23T17:59:59.999Z'))).toBe('usage-p1-2026112317');
    expect(usageStreamId('p1', new Date('2026-11-23T18:00:00Z'))).toBe('usage-p1-2026112318');
  });
});

describe('boundedFailureMessage', () => {
  it('keeps a short message and cuts a long one at FAILURE_MESSAGE_MAX', () => {
    expect(boundedFailureMessage('bad gateway')).toBe('bad gateway');
    expect(boundedFailureMessage('x'.repeat(FAILURE_MESSAGE_MAX + 50))).toHaveLength(
      FAILURE_MESSAGE_MAX,
    );
  });
});
