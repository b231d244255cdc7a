import type { Database } from 'better-sqlite3';

/**
 * Registers `regexp(pattern, value)` (what SQLite's REGEXP operator calls) and `regexp(pattern, flags,
 * value)` (what filterToSql emits, so `$options: 'i'` works). Compiled patterns are cached.
 */
export function registerRegexp(db: Database): void {
  const cache = new Map<string, RegExp>();
  db.function('regexp', { varargs: true, deterministic: true }, (...args: unknown[]) => {
    const [pattern, flags, value] = args.length === 2 ? [args[0], '', args[1]] : args;
    if (typeof pattern !== 'string' || typeof value !== 'string') return 0;
    const key = `${String(flags)}/${pattern}`;
    let re = cache.get(key);
    if (!re) {
      if (cache.size >= 256) cache.clear();
      re = new RegExp(pattern, typeof flags === 'string' ? flags : '');
      cache.set(key, re);
    }
    return re.test(value) ? 1 : 0;
  });
}
