import { closeSync, openSync, watch, type FSWatcher } from 'node:fs';

/**
 * The file beside an events file whose one byte a writer thread rewrites after each commit, when
 * asked to (`signalCommits`): a page-cache write, never fsynced, never read. Its only use is the
 * change the kernel reports (inotify on Linux) to a process watching it. SQLite's own files cannot
 * serve: the write-ahead log changes before the commit is visible, and the shared-memory index that
 * makes it visible is written through a memory map, which reports nothing.
 */
export const commitSignalPath = (filename: string): string => `${filename}.commits`;

/**
 * Looks prompted by the signal at most this often. A look is a query for the head and one for the
 * events after it, on a page cache the other process's commit has just invalidated; under load
 * commits come every few milliseconds, and the projections hold receipts back for their pacing
 * (25 ms) anyway.
 */
export const SIGNAL_LOOK_MS = 10;
/** A file that could not be watched is tried again at most this often. */
const REWATCH_MS = 1_000;

/**
 * Calls `look` soon after another process commits to an events file (the writer thread's signal,
 * above): at once after a quiet spell, else once the last look is SIGNAL_LOOK_MS old; a signal
 * while a look waits is taken by it. The watch is dropped at each signal and armed again just
 * before the look, so a burst of commits wakes this process once per look, not once per commit
 * (a commit during the look signals the armed watch). The store's periodic look still runs: a
 * file that cannot be watched (a file system or platform without change events, the watch limit)
 * only makes the looks as late as that period, and `rewatch` tries again (at most once a second).
 */
export class CommitSignalWatch {
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private lastLook = -Infinity;
  private lastTry = -Infinity;
  private closed = false;

  constructor(
    private readonly path: string,
    private readonly look: () => void,
    private readonly minIntervalMs = SIGNAL_LOOK_MS,
  ) {
    this.arm();
  }

  /** Whether the file is watched now (tests, diagnostics). */
  get watching(): boolean {
    return this.watcher !== undefined;
  }

  /** Arms a watch that failed (called from the store's periodic look); not one a signal dropped. */
  rewatch(): void {
    if (this.watcher || this.timer || this.closed) return;
    if (performance.now() - this.lastTry < REWATCH_MS) return;
    this.arm();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.unwatch();
  }

  private arm(): void {
    if (this.watcher || this.closed) return;
    this.lastTry = performance.now();
    try {
      this.watcher = this.watch();
    } catch {
      try {
        // Not there yet (the writer creates it at its start): a watch needs the file.
        closeSync(openSync(this.path, 'a'));
        this.watcher = this.watch();
      } catch {
        this.watcher = undefined;
      }
    }
  }

  private watch(): FSWatcher {
    const watcher = watch(this.path, { persistent: false }, () => this.signalled());
    watcher.on('error', () => this.unwatch());
    return watcher;
  }

  private unwatch(): void {
    this.watcher?.close();
    this.watcher = undefined;
  }

  private signalled(): void {
    this.unwatch();
    if (this.timer || this.closed) return;
    const wait = this.lastLook + this.minIntervalMs - performance.now();
    if (wait <= 0) return this.lookNow();
    this.timer = setTimeout(() => this.lookNow(), wait);
    this.timer.unref();
  }

  private lookNow(): void {
    this.timer = undefined;
    this.lastLook = performance.now();
    this.arm();
    this.look();
  }
}
