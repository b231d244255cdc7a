import { CALLS_SETTLE_MS, PendingWrites } from './pending-writes';

describe('PendingWrites', () => {
  it('drains the writers only after the calls under way settled', async () => {
    const pending = new PendingWrites();
    const order: string[] = [];
    pending.register(() => {
      order.push('writers drained');
      return Promise.resolve();
    });
    let settle!: () => void;
    pending.track(
      new Promise<void>((resolve) => (settle = resolve)).then(() => order.push('call settled')),
    );

    const drained = pending.drain();
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual([]);
    settle();
    await drained;
    expect(order).toEqual(['call settled', 'writers drained']);
  });

  it('stops waiting for a call that never settles after CALLS_SETTLE_MS', async () => {
    jest.useFakeTimers();
    try {
      const pending = new PendingWrites();
      const writer = jest.fn(() => Promise.resolve());
      pending.register(writer);
      pending.track(new Promise(() => undefined));
      const drained = pending.drain();
      await jest.advanceTimersByTimeAsync(CALLS_SETTLE_MS - 1);
      expect(writer).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      await drained;
      expect(writer).toHaveBeenCalledTimes(1);
    } finally {
      jest.useRealTimers();
    }
  });
});
