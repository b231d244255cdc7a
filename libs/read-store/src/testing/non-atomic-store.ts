import type { ReadStore, ReadStoreSession } from '../read-store.port';

/**
 * A store whose transactions are not atomic, as MongoDB's adapter on a standalone server: the body
 * writes straight through the store, so a body that throws half-way leaves its first writes behind.
 */
export function nonAtomic(store: ReadStore): ReadStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'atomicTransactions') return false;
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      const transaction: ReadStore['transaction'] = (body) => {
        const session: ReadStoreSession = { collection: (name) => target.collection(name) };
        return body(session);
      };
      return transaction;
    },
  });
}
