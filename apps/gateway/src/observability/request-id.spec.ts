import { newRequestId, requestIdFrom } from './request-id';

describe('requestIdFrom', () => {
  it('keeps an id of at most 64 characters of [A-Za-z0-9._-]', () => {
    for (const id of ['a', 'trace-abc.123', 'A_b-C.9', 'x'.repeat(64)]) {
      expect(requestIdFrom(id)).toBe(id);
    }
  });

  it('makes one for a missing, repeated, too long or ill-formed header', () => {
    for (const header of [undefined, '', 'x'.repeat(65), 'has space', 'a/b', 'é', ['a', 'b']]) {
      const made = requestIdFrom(header);
      expect(made).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it('makes a different id each time', () => {
    expect(newRequestId()).not.toBe(newRequestId());
  });

  it('makes a UUID v7: its first 12 hex digits are the milliseconds it was made at', () => {
    const before = Date.now();
    const made = newRequestId();
    const at = parseInt(made.slice(0, 12), 16);
    expect(made[12]).toBe('7');
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
  });

  it('makes ids of one millisecond that share no counter: their 12 bits after the version differ', () => {
    const made = Array.from({ length: 2000 }, () => newRequestId());
    let pairs = 0;
    let differing = 0;
    for (let i = 1; i < made.length; i++) {
      const [before, id] = [made[i - 1]!, made[i]!];
      if (id.slice(0, 12) !== before.slice(0, 12)) continue;
      pairs += 1;
      if (id.slice(13, 16) !== before.slice(13, 16)) differing += 1;
    }
    expect(pairs).toBeGreaterThan(10);
    // A per-process counter would leave them equal but for a few in 4 096.
    expect(differing).toBeGreaterThan(pairs / 2);
  });
});
