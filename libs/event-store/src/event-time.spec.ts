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

  it('given more distinct times than it keeps parsed, when each is read twice, then each its own', () => {
    const times = Array.from({ length: 5_000 }, (_, i) => 1_767_225_600_000 + i * 1_001);
    for (const round of [0, 1])
      for (const ms of times) {
        const occurredAt = new Date(ms).toISOString();
        expect([round, eventTimeMs({ metadata: { occurredAt }, recordedAt })]).toEqual([round, ms]);
      }
    expect(eventTimeMs({ metadata: { occurredAt: 'soon' }, recordedAt })).toBe(
      recordedAt.getTime(),
    );
  });

  it('given two times that share a slot, when read in turn, then each its own', () => {
    const a = '2026-01-01T00:00:07.123Z';
    const b = '2026-01-01T05:40:07.123Z'; // the same last digits: the same slot
    for (const at of [a, b, a, b])
      expect(eventTimeMs({ metadata: { occurredAt: at }, recordedAt })).toBe(Date.parse(at));
  });
});
