/** Process facts read from Linux's /proc, for tests that check which processes a gateway runs. */
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
  readonly ppid: number;
  /** R, S, D, Z (zombie: exited, not yet reaped), … */
  readonly state: string;
}

/** `/proc/<pid>/stat`: the state and parent pid; null when the process does not exist. */
function statOf(pid: number): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: read after its last ')'.
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid) };
  } catch {
    return null;
  }
}

/** The arguments a process was started with (`/proc/<pid>/cmdline`); [] when it is gone. */
export function commandLineOf(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** The pids of the live processes whose parent is `parentPid`. */
export function childPidsOf(parentPid: number): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const stat = statOf(pid);
      return stat !== null && stat.ppid === parentPid && stat.state !== 'Z';
    });
}

/**
 * True while `pid` runs. A zombie counts as gone: an orphan's exit is reaped by whatever init the
 * machine runs, which need not reap promptly (or at all in a container).
 */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== null && stat.state !== 'Z';
}
