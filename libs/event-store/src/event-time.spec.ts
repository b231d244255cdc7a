import { eventTimeMs } from './event-time';

describe('eventTimeMs', () => {
  const recordedAt = new Date('2026-01-02T03:04:05.000Z');

  it('given an occurredAt in the metadata, when read, then that time', () => {
    const event = { metadata: { occurredAt: '2025-12-31T23:59:59.000Z' }, recordedAt };
    expect(eventTimeMs(event)).toBe(Date.parse('2025-12-31T23:59:59.000Z'));
  });

  it('given no occurredAt, when read, then the time the store recorded it', () => {
    expect(eventTimeMs({ metadata: {}, recordedAt })).toBe(recordedAt.getTime());
  });

  it('given an occurredAt that is not a date, when read, then the recorded time', () => {
    expect(eventTimeMs({ metadata: { occurredAt: 'soon' }, recordedAt })).toBe(
      recordedAt.getTime(),
    );
  });
});
