import { randomUUID } from 'node:crypto';
import type {
  AppendResult,
  EventStore,
  RecordedEvent,
} from '@tollgate/event-store/event-store.port';
import type { Projection } from '../projection/projection';
import type { AnyDoc, Filter, ReadStore, ReadStoreSession } from '../read-store.port';

/**
 * Test projections. QuotaAdded uses $inc on purpose: applying an event twice would show; it goes
 * through the batched path, the rest through `apply`.
 */
export interface SampleOptions {
  readonly version?: number;
  /** Called before each apply; throw from it to simulate a crash. */
  readonly onApply?: (event: RecordedEvent) => void;
}

interface UserEventData {
  userId: string;
  name?: string;
  amount?: number;
}

export function usersProjection(options: SampleOptions = {}): Projection {
  return {
    name: 'test_users',
    version: options.version ?? 1,
    collections: [{ name: 'test_users', indexes: [{ fields: { name: 1 } }] }],
    eventTypes: ['UserRegistered', 'UserRenamed', 'QuotaAdded'],
    async apply(event, session) {
      options.onApply?.(event);
      const users = session.collection('test_users');
      const data = event.data as UserEventData;
      if (event.type === 'UserRegistered')
        await users.put({ _id: data.userId, name: data.name, quota: 0 });
      if (event.type === 'UserRenamed')
        await users.update(data.userId, { $set: { name: data.name } });
    },
    // Top-ups go through the batch's write buffer: a batch of them is one write per user.
    batched: {
      eventTypes: ['QuotaAdded'],
      apply(event, writes) {
        options.onApply?.(event);
        const data = event.data as UserEventData;
        writes.update('test_users', data.userId, {
          $inc: { quota: data.amount ?? 0 },
          $max: { biggestTopUp: data.amount ?? 0 },
        });
      },
    },
  };
}

export function statsProjection(options: SampleOptions = {}): Projection {
  return {
    name: 'test_stats',
    version: options.version ?? 1,
    collections: [
      { name: 'test_model_stats' },
      { name: 'test_request_logs', indexes: [{ fields: { model: 1 } }] },
    ],
    eventTypes: ['RequestLogged'],
    async apply(event, session) {
      options.onApply?.(event);
      const data = event.data as { model: string; tokens: number };
      await session
        .collection('test_request_logs')
        .put({ _id: event.id, model: data.model, tokens: data.tokens });
      await session
        .collection('test_model_stats')
        .update(
          data.model,
          { $inc: { requests: 1, tokens: data.tokens }, $setOnInsert: { model: data.model } },
          { upsert: true },
        );
    },
  };
}

export const userCollections = ['test_users'];
export const statsCollections = ['test_model_stats', 'test_request_logs'];
export const sampleCollections = [...userCollections, ...statsCollections];

export function append(
  store: EventStore,
  streamId: string,
  type: string,
  data: unknown,
): Promise<AppendResult> {
  return store.append(streamId, [{ id: randomUUID(), type, data }], 'any');
}

/** A mixed log: users, renames, top-ups, request logs and events no projection handles. */
export async function seedLog(store: EventStore, users = 10, rounds = 5): Promise<void> {
  for (let u = 0; u < users; u++)
    await append(store, `user-${u}`, 'UserRegistered', { userId: `${u}`, name: `user ${u}` });
  for (let r = 0; r < rounds; r++) {
    for (let u = 0; u < users; u++) {
      await append(store, `billing-${u}`, 'QuotaAdded', {
        userId: `${u}`,
        amount: (u + 1) * (r + 1),
      });
      await append(store, `log-${u}`, 'RequestLogged', {
        model: `model-${(u + r) % 3}`,
        tokens: u + r,
      });
      await append(store, `misc-${u}`, 'SomethingElseHappened', { n: r });
      if (r === 2 && u % 3 === 0)
        await append(store, `user-${u}`, 'UserRenamed', { userId: `${u}`, name: `renamed ${u}` });
    }
  }
}

/** Every document of the given collections, sorted, for whole-state comparisons. */
export async function snapshot(
  readStore: ReadStore,
  names: readonly string[],
): Promise<Record<string, AnyDoc[]>> {
  const result: Record<string, AnyDoc[]> = {};
  for (const name of names)
    result[name] = await readStore.collection(name).find({}, { sort: { _id: 1 } });
  return result;
}

/** A session that records the id of every update reaching the store through it. */
export function countWrites(session: ReadStoreSession): {
  session: ReadStoreSession;
  writes: string[];
} {
  const writes: string[] = [];
  const wrapped: ReadStoreSession = {
    collection: (name) =>
      new Proxy(session.collection(name), {
        get(target, key, receiver) {
          const value = Reflect.get(target, key, receiver) as unknown;
          if (key !== 'update' && key !== 'updateMany') return value;
          return (first: string | Filter, ...rest: unknown[]) => {
            writes.push(typeof first === 'string' ? first : String(first['_id']));
            return (value as (...args: unknown[]) => unknown).call(target, first, ...rest);
          };
        },
      }),
  };
  return { session: wrapped, writes };
}

/** The store, with every transaction's session recording its updates into `writes`. */
export function countTransactionWrites(store: ReadStore): { store: ReadStore; writes: string[] } {
  const writes: string[] = [];
  const wrapped = new Proxy(store, {
    get(target, key, receiver) {
      if (key !== 'transaction') return Reflect.get(target, key, receiver) as unknown;
      const transaction: ReadStore['transaction'] = (body) =>
        target.transaction((session) => {
          const counted = countWrites(session);
          return body(counted.session).finally(() => writes.push(...counted.writes));
        });
      return transaction;
    },
  });
  return { store: wrapped, writes };
}
