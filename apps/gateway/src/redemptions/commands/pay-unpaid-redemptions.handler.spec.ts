import { SYSTEM_ACTOR } from '@tollgate/domain';
import { SqliteEventStore } from '@tollgate/event-store';
import { recordedEvent } from '@tollgate/testing/recorded-event';
import type { AppConfig } from '../../config/app-config';
import type { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { SHARED_STORE_GRACE_MS } from '../../infrastructure/shared-store-grace';
import { UnpaidRedemptions } from '../redemption-credit';
import { PayUnpaidRedemptionsHandler } from './pay-unpaid-redemptions.handler';

const T0 = new Date('2026-05-01T12:00:00Z');
// No read models or caches to wait for here: the credits are read from the store itself.
const noReadModels = { waitFor: async () => undefined } as unknown as ReadYourWrites;

describe('PayUnpaidRedemptions', () => {
  let store: SqliteEventStore;
  let unpaid: UnpaidRedemptions;
  let handler: PayUnpaidRedemptionsHandler | undefined;

  const repair = (config: Partial<AppConfig>) => {
    handler = new PayUnpaidRedemptionsHandler(
      new StreamCommands(store),
      unpaid,
      noReadModels,
      config as AppConfig,
    );
    return handler;
  };
  const credits = async () =>
    (await store.readStream('billing-7')).map((e) => ({
      data: e.data,
      actor: e.metadata['actor'],
      correlationId: e.metadata['correlationId'],
    }));
  const paidOnce = [
    {
      data: { userId: 7, amount: 500, reason: 'redemption', reference: 'redemption-3' },
      actor: SYSTEM_ACTOR,
      correlationId: 'req-3',
    },
  ];

  beforeEach(() => {
    jest.useFakeTimers({ now: T0, doNotFake: ['setImmediate', 'nextTick', 'queueMicrotask'] });
    store = SqliteEventStore.open(':memory:');
    unpaid = new UnpaidRedemptions();
    unpaid.apply([
      recordedEvent(
        'RedemptionRedeemed',
        { redemptionId: 3, userId: 7, quota: 500, redeemedTime: T0.getTime() / 1000 },
        { recordedAt: T0, metadata: { correlationId: 'req-3' } },
      ),
    ]);
  });
  afterEach(async () => {
    handler?.onApplicationShutdown();
    handler = undefined;
    jest.useRealTimers();
    await store.close();
  });

  it('alone on the embedded store, pays at once and once however often it runs', async () => {
    const pay = repair({});
    expect(await pay.execute()).toBe(1);
    expect(await pay.execute()).toBe(0);
    expect(await credits()).toEqual(paidOnce);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('on a shared store, leaves a fresh redeem alone, then pays it once it is past the grace', async () => {
    const pay = repair({ eventStoreUrl: 'esdb://shared:2113' });
    jest.setSystemTime(T0.getTime() + 1_000);
    expect(await pay.execute()).toBe(0);
    expect(await credits()).toEqual([]);

    await jest.advanceTimersByTimeAsync(SHARED_STORE_GRACE_MS - 2_000);
    expect(await credits()).toEqual([]);
    await jest.advanceTimersByTimeAsync(2_000);
    jest.useRealTimers();
    for (let i = 0; i < 50 && (await credits()).length === 0; i += 1)
      await new Promise((r) => setTimeout(r, 10));
    expect(await credits()).toEqual(paidOnce);
    expect(await pay.execute()).toBe(0);
    expect(await credits()).toEqual(paidOnce);
  });
});
