import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { throttle } from './throttle';

describe('throttle', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs the first call at once and collapses a burst into one call at the end', () => {
    const run = vi.fn();
    const throttled = throttle(run, 1_000);
    throttled();
    expect(run).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 50; i += 1) throttled();
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(999);
    expect(run).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(run).toHaveBeenCalledTimes(2);
    // Quiet afterwards: nothing more runs.
    vi.advanceTimersByTime(5_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('never runs twice within the interval, and cancel drops the waiting call', () => {
    const run = vi.fn();
    const throttled = throttle(run, 1_000);
    const times: number[] = [];
    run.mockImplementation(() => times.push(Date.now()));
    for (let ms = 0; ms < 5_000; ms += 100) {
      throttled();
      vi.advanceTimersByTime(100);
    }
    const gaps = times.slice(1).map((time, index) => time - (times[index] ?? 0));
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1_000);
    expect(times.length).toBeGreaterThanOrEqual(5);

    const later = vi.fn();
    const other = throttle(later, 1_000);
    other();
    other();
    other.cancel();
    vi.advanceTimersByTime(2_000);
    expect(later).toHaveBeenCalledTimes(1);
  });
});
