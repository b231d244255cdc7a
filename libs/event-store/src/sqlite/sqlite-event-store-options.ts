import type { SqliteSynchronous } from './sqlite-schema';

/** How `SqliteEventStore.open` sets up a store. */
export interface SqliteEventStoreOptions {
  /**
   * Default 'full': every commit is fsynced, like EventStoreDB. Group commit makes that free under
   * concurrency (~49k appends/s either way here); 'normal' only helps one-at-a-time appends
   * (~19k/s vs ~6k/s) and can lose the last commits on power loss (never on a process crash).
   */
  readonly synchronous?: SqliteSynchronous;
  /**
   * Called once if the writer thread dies: the store then refuses every append, so the process
   * should stop serving (what it does would never be recorded) and be restarted.
   */
  readonly onWriterLost?: (error: Error) => void;
  /**
   * How often (ms) to look for appends another process made to the same file (default 20; 0 =
   * never, ':memory:' never): their events reach this process's live subscriptions in order.
   */
  readonly watchForeignAppendsMs?: number;
  /**
   * `on-first-append`: the writer thread starts with the first append instead of at open (a
   * process that only reads and subscribes, such as the projector, never pays for its isolate).
   */
  readonly startWriter?: 'at-open' | 'on-first-append';
  /**
   * The writer thread rewrites a byte of `<file>.commits` after each commit (a page-cache write):
   * processes that `watchCommitSignal` hear of the commit from the kernel, with nothing sent by this
   * process's event loop.
   */
  readonly signalCommits?: boolean;
  /**
   * Also looks for another process's appends when `<file>.commits` changes (at most every 10 ms),
   * not only at the watch's tick: for a process that reads what another appends (the projector).
   */
  readonly watchCommitSignal?: boolean;
}

/** Counters for tests and diagnostics. */
export interface SqliteEventStoreStats {
  /** Batches committed: one per group-committed flush (the writer may join several in a transaction). */
  readonly batches: number;
  /** Appends that succeeded. */
  readonly appends: number;
  readonly events: number;
}
