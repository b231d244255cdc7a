/**
 * Budget periods (docs/budgets.md): a day starts at local midnight, a week on Monday 00:00 local,
 * a month on the 1st at 00:00 local, in the server's time zone. Pure: the instant and the zone are
 * arguments (the gateway's `defaultTimeZone()` gives the server's); `Intl.DateTimeFormat` knows
 * the zone's offsets (DST included).
 */
export type BudgetPeriod = 'day' | 'week' | 'month';
export const BUDGET_PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];

export const isBudgetPeriod = (value: unknown): value is BudgetPeriod =>
  value === 'day' || value === 'week' || value === 'month';

export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

interface LocalTime {
  readonly year: number;
  readonly month: number; // 1..12
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
}

function localTime(ms: number, timeZone: string): LocalTime {
  const parts: Record<string, number> = {};
  for (const part of formatOf(timeZone).formatToParts(new Date(ms)))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts['year']!,
    month: parts['month']!,
    day: parts['day']!,
    hour: parts['hour']! % 24,
    minute: parts['minute']!,
    second: parts['second']!,
  };
}

/** Local time − UTC at that instant, in ms (whole seconds). */
function offsetAt(ms: number, timeZone: string): number {
  const t = localTime(ms, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const DAY_MS = 86_400_000;

/**
 * The first instant of the local calendar day y-m-d: its midnight, or (in a zone whose clocks jump
 * over midnight) the instant of the jump. Of two midnights (clocks set back over it) the earlier.
 */
function startOfLocalDay(year: number, month: number, day: number, timeZone: string): number {
  const guess = Date.UTC(year, month - 1, day); // the wall time read as UTC
  const before = offsetAt(guess - DAY_MS, timeZone);
  const after = offsetAt(guess + DAY_MS, timeZone);
  const matches = [guess - before, guess - after].filter((t) => {
    const l = localTime(t, timeZone);
    return l.year === year && l.month === month && l.day === day && l.hour === 0 && l.minute === 0;
  });
  if (matches.length > 0) return Math.min(...matches);
  // No local midnight that day: the day begins when the clocks jumped (old offset's midnight).
  return guess - before;
}

/** The local calendar date `days` after y-m-d (any sign), by UTC date arithmetic. */
function addDays(year: number, month: number, day: number, days: number) {
  const d = new Date(Date.UTC(year, month - 1, day + days));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

function localStartDate(period: BudgetPeriod, at: number, timeZone: string) {
  const l = localTime(at, timeZone);
  switch (period) {
    case 'day':
      return { year: l.year, month: l.month, day: l.day };
    case 'week': {
      const weekday = new Date(Date.UTC(l.year, l.month - 1, l.day)).getUTCDay(); // 0 = Sunday
      return addDays(l.year, l.month, l.day, -((weekday + 6) % 7));
    }
    case 'month':
      return { year: l.year, month: l.month, day: 1 };
  }
}

/** When the period containing `at` began (ms since the epoch). */
export function periodStartMs(period: BudgetPeriod, at: number, timeZone: string): number {
  const d = localStartDate(period, at, timeZone);
  return startOfLocalDay(d.year, d.month, d.day, timeZone);
}

/** When the period containing `at` ends, i.e. the next one begins (ms since the epoch). */
export function periodEndMs(period: BudgetPeriod, at: number, timeZone: string): number {
  const d = localStartDate(period, at, timeZone);
  const next =
    period === 'day'
      ? addDays(d.year, d.month, d.day, 1)
      : period === 'week'
        ? addDays(d.year, d.month, d.day, 7)
        : d.month === 12
          ? { year: d.year + 1, month: 1, day: 1 }
          : { year: d.year, month: d.month + 1, day: 1 };
  return startOfLocalDay(next.year, next.month, next.day, timeZone);
}
