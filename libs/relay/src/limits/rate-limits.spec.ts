import { BucketWindow, TokenLimiter, UserRequestLimiter } from './rate-limits';

describe('BucketWindow', () => {
  it('sums the last window and says when it drops under a limit', () => {
    const w = new BucketWindow(60_000);
    w.add(3, 0);
    w.add(2, 30_000);
    expect(w.sum(30_000)).toBe(5);
    expect(w.waitMs(5, 30_000)).toBe(30_000); // the first bucket expires at 60 s
    expect(w.sum(60_000)).toBe(2);
    expect(w.sum(90_000)).toBe(0);
    expect(w.waitMs(10, 0)).toBe(0);
  });
});

describe('TokenLimiter', () => {
  it('rpm: the (n+1)th request in a minute gets a 429 with Retry-After', () => {
    let now = 0;
    const limiter = new TokenLimiter(() => now);
    const limits = { rpm: 2, tpm: 0, concurrency: 0 };
    for (let i = 0; i < 2; i++) {
      const v = limiter.admit(1, limits);
      expect(v.ok).toBe(true);
      if (v.ok) v.release();
    }
    now = 15_000;
    expect(limiter.admit(1, limits)).toEqual({ ok: false, limit: 'rpm', retryAfter: 45, max: 2 });
    expect(limiter.admit(2, limits).ok).toBe(true); // another token
    now = 60_000;
    expect(limiter.admit(1, limits).ok).toBe(true);
  });

  it('concurrency: held until released (release is idempotent)', () => {
    const limiter = new TokenLimiter(() => 0);
    const limits = { rpm: 0, tpm: 0, concurrency: 1 };
    const first = limiter.admit(1, limits);
    expect(limiter.admit(1, limits)).toMatchObject({
      ok: false,
      limit: 'concurrency',
      retryAfter: 1,
    });
    if (first.ok) {
      first.release();
      first.release();
    }
    const second = limiter.admit(1, limits);
    expect(second.ok).toBe(true);
    expect(limiter.admit(1, limits).ok).toBe(false);
  });

  it('tpm: tokens of finished requests count for a minute', () => {
    let now = 0;
    const limiter = new TokenLimiter(() => now);
    const limits = { rpm: 0, tpm: 100, concurrency: 0 };
    expect(limiter.admit(1, limits).ok).toBe(true);
    limiter.consumed(1, 120);
    now = 1000;
    expect(limiter.admit(1, limits)).toMatchObject({ ok: false, limit: 'tpm', retryAfter: 59 });
    now = 60_000;
    expect(limiter.admit(1, limits).ok).toBe(true);
  });
});

describe('UserRequestLimiter (ModelRequestRateLimit*)', () => {
  it('limits all requests and successful ones per user over the duration', () => {
    let now = 0;
    const limiter = new UserRequestLimiter(() => now);
    const limits = { enabled: true, durationMinutes: 1, totalCount: 3, successCount: 1 };
    expect(limiter.admit(7, limits).ok).toBe(true);
    limiter.succeeded(7);
    expect(limiter.admit(7, limits)).toMatchObject({ ok: false, limit: 'user_successes' });
    expect(limiter.admit(7, { ...limits, successCount: 0 }).ok).toBe(true);
    expect(limiter.admit(7, { ...limits, successCount: 0 }).ok).toBe(true);
    expect(limiter.admit(7, { ...limits, successCount: 0 })).toMatchObject({
      ok: false,
      limit: 'user_requests',
      max: 3,
    });
    now = 60_000;
    expect(limiter.admit(7, limits).ok).toBe(true);
    expect(limiter.admit(8, { ...limits, enabled: false }).ok).toBe(true);
  });

  it('0 = no limit; refusals are not counted; the window is DurationMinutes and slides', () => {
    let now = 0;
    const limiter = new UserRequestLimiter(() => now);
    const none = { enabled: true, durationMinutes: 5, totalCount: 0, successCount: 0 };
    for (let i = 0; i < 50; i++) expect(limiter.admit(1, none).ok).toBe(true);
    const limits = { enabled: true, durationMinutes: 5, totalCount: 2, successCount: 0 };
    expect(limiter.admit(2, limits).ok).toBe(true);
    now = 120_000;
    expect(limiter.admit(2, limits).ok).toBe(true);
    for (let i = 0; i < 3; i++) {
      expect(limiter.admit(2, limits)).toMatchObject({ ok: false, limit: 'user_requests' });
    }
    // The first call leaves the 5-minute window at 300 s: Retry-After says so.
    now = 200_000;
    expect(limiter.admit(2, limits)).toMatchObject({ ok: false, retryAfter: 100 });
    now = 300_000;
    expect(limiter.admit(2, limits).ok).toBe(true);
    // A changed duration starts a new window for the user.
    expect(limiter.admit(2, { ...limits, durationMinutes: 1 }).ok).toBe(true);
  });
});
