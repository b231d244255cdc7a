import { readdirSync, readlinkSync } from 'node:fs';

/**
 * The temporary files SQLite holds open in this process (Linux). SQLite names them `etilqs_*` and
 * unlinks each at once, so only `/proc/self/fd` still names them: a statement or savepoint journal
 * moved out of memory, or a sort's runs written to disk.
 */
export function sqliteTemporaryFiles(): string[] {
  return readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return ''; // closed meanwhile
      }
    })
    .filter((target) => target.includes('etilqs_'));
}
