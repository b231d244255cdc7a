import type Database from 'better-sqlite3';
import type { Election } from './election/election';
import { lockExclusively } from './sqlite-file-lock';

const RETRY_MS = 500;

/**
 * Scale-out on one DATA_DIR: of the processes that want a role, the one holding the exclusive lock
 * on its file is elected (DATA_DIR/projector.lock: writes the read models; scheduler.lock: runs the
 * scheduled jobs). The others try again every 500 ms, so when the holder dies (even by kill -9: the
 * OS drops its lock) one of them takes over. Once won, the lock is held until `release` or the end
 * of the process.
 */
export class LockElection implements Election {
  private db: Database.Database | null = null;
  private readonly listeners = new Set<() => void>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly file: string,
    private readonly onError: (error: Error) => void,
    private readonly retryMs = RETRY_MS,
  ) {}

  get held(): boolean {
    return this.db !== null;
  }

  /** No fencing token: the lock is never lost while this process lives. */
  readonly token = null;

  confirmed(): boolean {
    return this.held;
  }

  /** Never fires: only the end of the process drops the lock, and then nothing is left to stop. */
  onLost(): () => void {
    return () => undefined;
  }

  /** Tries now (synchronously), then every retry interval until won. */
  start(): void {
    this.stopped = false;
    this.attempt();
  }

  /** `listener` runs once this process holds the lock: now if it already does. */
  onWon(listener: () => void): void {
    if (this.held) this.notify(listener);
    else this.listeners.add(listener);
  }

  /** Gives the lock up (shutdown, or a projector that failed to start) and stops trying. */
  release(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.db?.close();
    this.db = null;
    return Promise.resolve();
  }

  private attempt(): void {
    if (this.stopped || this.db) return;
    try {
      this.db = lockExclusively(this.file);
    } catch (error) {
      this.onError(error as Error);
    }
    if (this.db) {
      const won = [...this.listeners];
      this.listeners.clear();
      for (const listener of won) this.notify(listener);
      return;
    }
    // Unref'd: a follower waiting for its turn must not keep a stopping process alive.
    this.timer = setTimeout(() => this.attempt(), this.retryMs);
    this.timer.unref();
  }

  private notify(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.onError(error as Error);
    }
  }
}
