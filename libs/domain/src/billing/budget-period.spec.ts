import { isTimeZone, periodEndMs, periodStartMs, type BudgetPeriod } from './budget-period';

const iso = (ms: number) => new Date(ms).toISOString();
const window = (period: BudgetPeriod, at: string, zone: string) => [
  iso(periodStartMs(period, Date.parse(at), zone)),
  iso(periodEndMs(period, Date.parse(at), zone)),
];

describe('budget periods', () => {
  describe('Asia/Shanghai (UTC+8, no DST)', () => {
    const zone = 'Asia/Shanghai';
    it('a day runs from local midnight to local midnight', () => {
      // 23:59:59 local on 10 March, then midnight: the next day.
      expect(window('day', '2026-03-10T15:59:59.999Z', zone)).toEqual([
        '2026-03-09T16:00:00.000Z',
        '2026-03-10T16:00:00.000Z',
      ]);
      expect(window('day', '2026-03-10T16:00:00.000Z', zone)).toEqual([
        '2026-03-10T16:00:00.000Z',
        '2026-03-11T16:00:00.000Z',
      ]);
    });
    it('a week starts on Monday 00:00 local', () => {
      // Wednesday 11 March 2026, 00:00 local.
      expect(window('week', '2026-03-10T16:00:00Z', zone)).toEqual([
        '2026-03-08T16:00:00.000Z',
        '2026-03-15T16:00:00.000Z',
      ]);
      // Sunday 23:59 local still belongs to the week that began on Monday 9 March.
      expect(window('week', '2026-03-15T15:59:00Z', zone)[0]).toBe('2026-03-08T16:00:00.000Z');
      // Monday 00:00 local: a new week.
      expect(window('week', '2026-03-15T16:00:00Z', zone)[0]).toBe('2026-03-15T16:00:00.000Z');
    });
    it('a month starts on the 1st 00:00 local, December rolls into January', () => {
      expect(window('month', '2026-12-31T15:59:59Z', zone)).toEqual([
        '2026-11-30T16:00:00.000Z',
        '2026-12-31T16:00:00.000Z',
      ]);
      expect(window('month', '2026-12-31T16:00:00Z', zone)).toEqual([
        '2026-12-31T16:00:00.000Z',
        '2027-01-31T16:00:00.000Z',
      ]);
    });
  });

  describe('America/New_York (DST)', () => {
    const zone = 'America/New_York';
    it('the day clocks go forward lasts 23 hours, the day they go back 25', () => {
      expect(window('day', '2026-03-08T12:00:00Z', zone)).toEqual([
        '2026-03-08T05:00:00.000Z',
        '2026-03-09T04:00:00.000Z',
      ]);
      expect(window('day', '2026-11-01T12:00:00Z', zone)).toEqual([
        '2026-11-01T04:00:00.000Z',
        '2026-11-02T05:00:00.000Z',
      ]);
      // 23:30 EST on 1 November is still that day.
      expect(window('day', '2026-11-02T04:30:00Z', zone)[0]).toBe('2026-11-01T04:00:00.000Z');
    });
    it('a week across the change: Monday EST to Monday EDT', () => {
      expect(window('week', '2026-03-08T12:00:00Z', zone)).toEqual([
        '2026-03-02T05:00:00.000Z',
        '2026-03-09T04:00:00.000Z',
      ]);
    });
    it('a month across the change', () => {
      expect(window('month', '2026-03-20T12:00:00Z', zone)).toEqual([
        '2026-03-01T05:00:00.000Z',
        '2026-04-01T04:00:00.000Z',
      ]);
      // 31 March 23:59 EDT is still March; 1 April 00:00 EDT is April.
      expect(window('month', '2026-04-01T03:59:59Z', zone)[0]).toBe('2026-03-01T05:00:00.000Z');
      expect(window('month', '2026-04-01T04:00:00Z', zone)[0]).toBe('2026-04-01T04:00:00.000Z');
    });
  });

  it('a zone whose clocks jump over midnight: the day begins at the jump (America/Santiago)', () => {
    // Chile goes from -04 to -03 at 00:00 on 6 September 2026: that day begins at 01:00 local.
    expect(window('day', '2026-09-06T12:00:00Z', 'America/Santiago')).toEqual([
      '2026-09-06T04:00:00.000Z',
      '2026-09-07T03:00:00.000Z',
    ]);
  });

  it('half-hour offsets (Asia/Kolkata) and UTC', () => {
    expect(window('day', '2026-03-10T12:00:00Z', 'Asia/Kolkata')).toEqual([
      '2026-03-09T18:30:00.000Z',
      '2026-03-10T18:30:00.000Z',
    ]);
    expect(window('week', '2026-03-10T12:00:00Z', 'UTC')).toEqual([
      '2026-03-09T00:00:00.000Z',
      '2026-03-16T00:00:00.000Z',
    ]);
  });

  it('knows a zone from a typo', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('Asia/Shangai')).toBe(false);
  });
});
