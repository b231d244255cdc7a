import { ChannelStats } from '@tollgate/relay';
import { recordedEvent, usageReceipt } from '@tollgate/testing';
import { seedChannelStats } from './channel-stats-seed';

const NOW = 1_000_000_000;
const at = (msAgo: number) => ({ metadata: { occurredAt: new Date(NOW - msAgo).toISOString() } });

function failure(channelChain: number[], stream = false) {
  return {
    requestId: 'r',
    userId: 1,
    tokenId: 1,
    tokenName: 't',
    group: 'default',
    model: 'm',
    channelId: channelChain[channelChain.length - 1],
    channelChain,
    endpoint: '/v1/chat/completions',
    status: 500,
    message: 'boom',
    retries: channelChain.length - 1,
    useTimeMs: 30,
    stream,
    ip: '',
    quota: 0,
  };
}

describe('seedChannelStats', () => {
  it('rebuilds latency and error rate from receipts and failures, oldest first', () => {
    const stats = new ChannelStats(() => NOW);
    const events = [
      // Newest first in the store order: the seeding sorts by time.
      recordedEvent(
        'RequestRelayed',
        usageReceipt({ model: 'm', channelId: 1, useTimeMs: 20 }),
        at(1_000),
      ),
      recordedEvent(
        'RequestRelayed',
        usageReceipt({ model: 'm', channelId: 1, useTimeMs: 10 }),
        at(2_000),
      ),
      // Channel 2 failed, then 3 answered the stream: its first token is its latency.
      recordedEvent(
        'RequestRelayed',
        usageReceipt({
          model: 'm',
          channelId: 3,
          channelChain: [2, 3],
          stream: true,
          useTimeMs: 900,
          firstTokenMs: 40,
        }),
        at(3_000),
      ),
      recordedEvent('RequestFailed', failure([2, 4]), at(1_500)),
      // Outside the window, and not a call: left out.
      recordedEvent('RequestRelayed', usageReceipt({ model: 'm', channelId: 5 }), at(20 * 60_000)),
      recordedEvent('UserRegistered', { userId: 9 }, at(1_000)),
    ];
    expect(seedChannelStats(stats, events, NOW - 10 * 60_000)).toBe(6);

    const one = stats.snapshot(1, 'm', false)!;
    // 10 then 20 (time order), smoothed by 0.1.
    expect(one.latencyMs).toBeCloseTo(11, 6);
    expect(one).toMatchObject({ calls: 2, errorRate: 0, open: 0 });
    expect(stats.snapshot(3, 'm', true)).toMatchObject({ latencyMs: 40, calls: 1, errorRate: 0 });
    expect(stats.snapshot(3, 'm', false)?.calls).toBe(0); // streams and non-streams apart
    expect(stats.snapshot(4, 'm', false)).toMatchObject({ latencyMs: 0, calls: 1 });
    expect(stats.snapshot(5, 'm', false)).toBeUndefined();
    // Channel 2 failed twice (stream at -3 s, non-stream at -1.5 s): each rate faded since.
    const two = stats.snapshot(2, 'm', false)!;
    expect(two.calls).toBe(1);
    expect(two.errorRate).toBeCloseTo(2 ** (-1_500 / 5_000), 6);
    expect(stats.snapshot(2, 'm', true)!.errorRate).toBeCloseTo(2 ** (-3_000 / 5_000), 6);
  });

  it('an old failure weighs less than a fresh one', () => {
    const fresh = new ChannelStats(() => NOW);
    const old = new ChannelStats(() => NOW);
    seedChannelStats(fresh, [recordedEvent('RequestFailed', failure([1]), at(500))], 0);
    seedChannelStats(old, [recordedEvent('RequestFailed', failure([1]), at(60_000))], 0);
    expect(old.cost('latency', 1, 'm', false)!).toBeLessThan(fresh.cost('latency', 1, 'm', false)!);
  });
});
