/** FIFO async lock: one holder at a time, waiters run in arrival order. */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async run<R>(fn: () => Promise<R> | R): Promise<R> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
