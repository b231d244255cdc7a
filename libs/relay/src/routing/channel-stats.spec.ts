import { selectChannel } from './channel-selector';
import { ChannelStats } from './channel-stats';

/** A deterministic [0, 1) sequence (an LCG), so shares are reproducible. */
function seeded(seed = 7): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const tier = [1, 2, 3].map((id) => ({ id, priority: 0, weight: 0 }));

/** Picks `n` times under a strategy; how many each channel got. */
function shares(stats: ChannelStats, strategy: 'latency' | 'least-busy', n = 2000) {
  const rng = seeded();
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const pick = selectChannel(tier, {
      attempt: 0,
      tried: new Set(),
      isCooling: () => false,
      rng,
      costs: stats,
      strategy,
      model: 'm',
      stream: false,
    })!;
    counts.set(pick.id, (counts.get(pick.id) ?? 0) + 1);
  }
  return (id: number) => (counts.get(id) ?? 0) / n;
}

function observe(stats: ChannelStats, id: number, calls: number, latencyMs: number, failEvery = 0) {
  for (let i = 1; i <= calls; i++) {
    stats.began(id, 'm', false);
    stats.ended(id, 'm', false, { ok: failEvery === 0 || i % failEvery !== 0, latencyMs });
  }
}

describe('ChannelStats and adaptive selection', () => {
  it('latency: the fast channel wins most traffic, the failing one least; all are probed', () => {
    const stats = new ChannelStats();
    observe(stats, 1, 50, 5);
    observe(stats, 2, 50, 200);
    observe(stats, 3, 50, 5, 2);
    const share = shares(stats, 'latency');
    expect(share(1)).toBeGreaterThan(0.85);
    expect(share(3)).toBeLessThan(share(2) + 0.05);
    // Probing keeps every channel in sight (a tenth of the picks spread evenly).
    for (const id of [2, 3]) expect(share(id)).toBeGreaterThan(0.02);
  });

  it('latency: a channel without history gets a fair share, not none and not all', () => {
    const stats = new ChannelStats();
    observe(stats, 1, 20, 10);
    observe(stats, 2, 20, 10);
    const share = shares(stats, 'latency');
    expect(share(3)).toBeGreaterThan(0.25);
    expect(share(3)).toBeLessThan(0.42);
  });

  it('latency: failures push a channel down within a few calls, and successes bring it back', () => {
    const stats = new ChannelStats();
    observe(stats, 1, 50, 5);
    observe(stats, 2, 50, 50);
    observe(stats, 3, 50, 50);
    observe(stats, 1, 10, 5, 1); // ten failures in a row
    expect(shares(stats, 'latency')(1)).toBeLessThan(0.15);
    observe(stats, 1, 50, 5);
    expect(shares(stats, 'latency')(1)).toBeGreaterThan(0.8);
  });

  it('least-busy: the channel with the fewest open calls wins', () => {
    const stats = new ChannelStats();
    for (let i = 0; i < 5; i++) stats.began(1, 'm', false);
    stats.began(2, 'm', false);
    const share = shares(stats, 'least-busy');
    expect(share(3)).toBeGreaterThan(share(2));
    expect(share(2)).toBeGreaterThan(share(1));
  });

  it('keeps streams and non-streams apart, and says nothing of a channel never called', () => {
    const stats = new ChannelStats();
    stats.began(1, 'm', true);
    stats.ended(1, 'm', true, { ok: true, latencyMs: 40 });
    expect(stats.cost('latency', 1, 'm', true)).toBe(40);
    expect(stats.cost('latency', 1, 'm', false)).toBeUndefined();
    expect(stats.cost('latency', 9, 'm', true)).toBeUndefined();
    expect(stats.snapshot(1, 'm', true)).toEqual({
      latencyMs: 40,
      errorRate: 0,
      calls: 1,
      open: 0,
    });
  });

  it('lets old failures fade with time (a channel that got no traffic since is tried again)', () => {
    let now = 0;
    const stats = new ChannelStats(() => now);
    observe(stats, 1, 5, 5);
    observe(stats, 1, 5, 5, 1);
    const failing = stats.cost('latency', 1, 'm', false)!;
    now = 5_000; // one half-life
    const later = stats.cost('latency', 1, 'm', false)!;
    expect(later - 5).toBeCloseTo((failing - 5) / 2, 5);
  });

  it('pins the distribution: a tenth uniform, the rest ∝ (weight + 10) / cost², unknown at the mean', () => {
    const stats = new ChannelStats(() => 0);
    observe(stats, 1, 20, 10);
    observe(stats, 2, 20, 30);
    const channels = [
      { id: 1, priority: 0, weight: 0 },
      { id: 2, priority: 0, weight: 30 },
      { id: 3, priority: 0, weight: 5 }, // no history
    ];
    const cost = (id: number) => stats.cost('latency', id, 'm', false) ?? 20; // the mean of 10, 30
    const raw = channels.map((c) => (c.weight + 10) / cost(c.id) ** 2);
    const sum = raw.reduce((a, b) => a + b, 0);
    const expected = raw.map((r) => 0.1 / 3 + 0.9 * (r / sum));
    const rng = seeded(11);
    const n = 40_000;
    const counts = [0, 0, 0];
    for (let i = 0; i < n; i++) {
      const pick = selectChannel(channels, {
        attempt: 0,
        tried: new Set(),
        isCooling: () => false,
        rng,
        costs: stats,
        strategy: 'latency',
        model: 'm',
        stream: false,
      })!;
      counts[pick.id - 1] = (counts[pick.id - 1] ?? 0) + 1;
    }
    for (let i = 0; i < 3; i++) expect(counts[i]! / n).toBeCloseTo(expected[i]!, 2);
  });
});
