/**
 * Runs tasks for one key one after the other, in call order; different keys run in parallel.
 * Appends to one stream go through it: separate gRPC calls issued together may reach the server in
 * any order, and a pipeline of appends with numeric expected revisions fails when they do.
 */
export class PerKeyQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    // The next task waits for this one to settle, whatever its outcome.
    const result = previous.then(task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
