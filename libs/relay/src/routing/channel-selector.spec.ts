import { CooldownBook, retryAfterMs, selectChannel } from './channel-selector';

const ch = (id: number, priority: number, weight = 0) => ({ id, priority, weight });
const ctx = (over: Partial<Parameters<typeof selectChannel>[1]> = {}) => ({
  attempt: 0,
  tried: new Set<number>(),
  isCooling: () => false,
  rng: () => 0,
  ...over,
});

describe('selectChannel', () => {
  const channels = [ch(1, 10, 0), ch(2, 10, 30), ch(3, 5), ch(4, 0)];

  it('picks inside the top tier, weighted by weight + 10', () => {
    // tier 10 totals (0+10) + (30+10) = 50: [0, 10) → 1, [10, 50) → 2
    expect(selectChannel(channels, ctx({ rng: () => 0.19 }))?.id).toBe(1);
    expect(selectChannel(channels, ctx({ rng: () => 0.2 }))?.id).toBe(2);
    expect(selectChannel(channels, ctx({ rng: () => 0.999 }))?.id).toBe(2);
  });

  it('gives a weight-0 channel its share over many draws', () => {
    let seed = 7;
    const rng = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const counts = new Map<number, number>();
    for (let i = 0; i < 5000; i++) {
      const id = selectChannel(channels, ctx({ rng }))!.id;
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.get(3)).toBeUndefined();
    expect((counts.get(1) ?? 0) / 5000).toBeCloseTo(0.2, 1);
  });

  it('retry i aims at tier i, never a channel already tried', () => {
    expect(selectChannel(channels, ctx({ attempt: 1, tried: new Set([2]) }))?.id).toBe(3);
    expect(selectChannel(channels, ctx({ attempt: 5, tried: new Set([2]) }))?.id).toBe(4);
    // the lowest tier is used up: back to the nearest higher tier with an untried channel
    expect(selectChannel(channels, ctx({ attempt: 3, tried: new Set([2, 4]) }))?.id).toBe(3);
    expect(selectChannel(channels, ctx({ tried: new Set([1, 2, 3, 4]) }))).toBeUndefined();
    // a tried top-tier channel does not shift the tiers: retry 1 still aims at priority 5
    const three = [ch(1, 20), ch(2, 10), ch(3, 0)];
    expect(selectChannel(three, ctx({ attempt: 1, tried: new Set([1]) }))?.id).toBe(2);
    expect(selectChannel(three, ctx({ attempt: 2, tried: new Set([1, 2]) }))?.id).toBe(3);
  });

  it('skips cooling channels while others are left, uses them as a last resort', () => {
    const cooling = (id: number) => id === 1 || id === 2;
    expect(selectChannel(channels, ctx({ isCooling: cooling }))?.id).toBe(3);
    const onlyCooling = [ch(1, 10), ch(2, 10)];
    expect(selectChannel(onlyCooling, ctx({ isCooling: cooling }))?.id).toBe(1);
  });
});

describe('CooldownBook', () => {
  it('cools a channel × model for a while, never shortening it', () => {
    let now = 0;
    const book = new CooldownBook(() => now);
    book.cool(1, 'm', 5000);
    book.cool(1, 'm', 1000);
    expect(book.isCooling(1, 'm')).toBe(true);
    expect(book.isCooling(1, 'other')).toBe(false);
    now = 4999;
    expect(book.remaining(1, 'm')).toBe(1);
    now = 5000;
    expect(book.isCooling(1, 'm')).toBe(false);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates, caps them', () => {
    expect(retryAfterMs('3', 0)).toBe(3000);
    expect(retryAfterMs('0.5', 0)).toBe(500);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(retryAfterMs('999999', 0)).toBe(600_000);
    expect(retryAfterMs('soon', 0)).toBeUndefined();
    expect(retryAfterMs(undefined, 0)).toBeUndefined();
  });
});
