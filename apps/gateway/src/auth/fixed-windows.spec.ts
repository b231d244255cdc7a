import { FixedWindows } from './fixed-windows';

describe('FixedWindows', () => {
  it('allows max hits per key per window, then refuses until the window ends', () => {
    const windows = new FixedWindows({ max: 2, windowMs: 1000 });
    expect([0, 1, 2].map((t) => windows.hit('ip', t))).toEqual([true, true, false]);
    expect(windows.full('ip', 999)).toBe(true);
    expect(windows.hit('other', 3)).toBe(true); // keys are counted apart
    expect(windows.full('ip', 1000)).toBe(false); // the window opened at 0 is over
    expect(windows.hit('ip', 1000)).toBe(true);
  });

  it('forget clears a key; max 0 is off and remembers nothing', () => {
    const windows = new FixedWindows({ max: 1, windowMs: 1000 });
    windows.hit('k', 0);
    expect(windows.full('k', 1)).toBe(true);
    windows.forget('k');
    expect(windows.full('k', 1)).toBe(false);
    const off = new FixedWindows({ max: 0, windowMs: 1000 });
    for (let i = 0; i < 5; i += 1) expect(off.hit('k', i)).toBe(true);
    expect(off.full('k', 5)).toBe(false);
    expect(off.size).toBe(0);
  });

  it('sweeps expired windows once many keys are held, keeping the live ones', () => {
    const windows = new FixedWindows({ max: 1, windowMs: 1000 });
    for (let i = 0; i < 9_999; i += 1) windows.hit(`old-${i}`, 0);
    windows.hit('live', 600);
    expect(windows.size).toBe(10_000);
    windows.hit('new', 1500); // opens a window at the threshold: the expired ones go
    expect(windows.size).toBe(2);
    expect(windows.full('live', 1500)).toBe(true); // its window, and its count, survived
  });
});
