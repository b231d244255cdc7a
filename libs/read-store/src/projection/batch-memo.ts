import type { ReadStoreSession } from '../read-store.port';

/**
 * Values a projection reads once per batch instead of once per event: keyed by the batch's session
 * (one per read-store transaction), so they are gone with the transaction. A batch of usage
 * receipts is mostly a few users' requests; each receipt used to read its user's document again.
 * The projection writes through `set` whatever it changes in the batch, so later events read that.
 */
export class BatchMemo<V> {
  private readonly bySession = new WeakMap<ReadStoreSession, Map<string, V>>();

  /** The value itself when the batch has it (no promise to make and await), else its load. */
  get(session: ReadStoreSession, key: string, load: () => Promise<V>): V | Promise<V> {
    const values = this.values(session);
    if (values.has(key)) return values.get(key) as V;
    return this.load(values, key, load);
  }

  set(session: ReadStoreSession, key: string, value: V): void {
    this.values(session).set(key, value);
  }

  private async load(values: Map<string, V>, key: string, load: () => Promise<V>): Promise<V> {
    const value = await load();
    values.set(key, value);
    return value;
  }

  private values(session: ReadStoreSession): Map<string, V> {
    let values = this.bySession.get(session);
    if (!values) {
      values = new Map();
      this.bySession.set(session, values);
    }
    return values;
  }
}
