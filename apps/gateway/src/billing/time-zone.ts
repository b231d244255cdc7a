import { isTimeZone } from '@tollgate/domain';

/**
 * The server's time zone for budget periods (docs/budgets.md): `TZ` when set and valid, else the
 * system's (what `new Date().toString()` uses), else UTC.
 */
export function defaultTimeZone(env: NodeJS.ProcessEnv = process.env): string {
  const tz = env['TZ'];
  if (tz && isTimeZone(tz)) return tz;
  return new Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}
