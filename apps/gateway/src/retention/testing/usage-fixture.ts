import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type EventStore } from '@tollgate/event-store';
import { usageReceipt } from '@tollgate/testing/usage-receipt';

/** 2026-01-10 12:30 UTC: with one day of retention, hours ending before 2026-01-09 12:30 go. */
export const NOW = Date.UTC(2026, 0, 10, 12, 30);
export const OLD_STREAMS = ['usage-p2-2026010809', 'usage-p1-2026010810'] as const;
export const NEW_STREAM = 'usage-p1-2026010912';

/** Receipts spread over a few users, tokens, channels and models, so the sums have rows. */
function receiptsOf(count: number, seed: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    type: 'RequestRelayed',
    data: usageReceipt({
      userId: 1 + (i % 4),
      tokenId: 10 + (i % 3),
      channelId: 1 + ((i + seed) % 2),
      model: i % 5 === 0 ? 'gpt-4o' : 'gpt-4o-mini',
      quota: 100 + i * 7 + seed,
      promptTokens: 20 + i,
      completionTokens: 3 + (i % 9),
    }),
  }));
}

/** A fresh store holding two old usage hours (with a failed call each) and a recent one. */
export async function usageStore(receiptsPerHour = 120): Promise<EventStore> {
  const store = SqliteEventStore.open(':memory:');
  for (const [index, stream] of OLD_STREAMS.entries()) {
    const failed = { id: randomUUID(), type: 'RequestFailed', data: { requestId: randomUUID() } };
    await store.append(stream, [...receiptsOf(receiptsPerHour, index), failed], 'any');
  }
  await store.append(NEW_STREAM, receiptsOf(20, 9), 'any');
  return store;
}

export function archiveFolder(): string {
  return join(mkdtempSync(join(tmpdir(), 'tollgate-retention-')), 'archive');
}

/**
 * The store, except that the first call of `method` for which `when` holds fails (a crash at that
 * step: what was done before it stays done).
 */
export function failingOnce(
  store: EventStore,
  method: keyof EventStore,
  when: (...args: unknown[]) => boolean = () => true,
): EventStore {
  let armed = true;
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (armed && property === method && when(...args)) {
          armed = false;
          return Promise.reject(new Error(`crash in ${String(method)}`));
        }
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
