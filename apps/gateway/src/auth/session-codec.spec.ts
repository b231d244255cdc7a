import { SESSION_MAX_AGE_S, SessionCodec } from './session-codec';

describe('SessionCodec', () => {
  const codec = new SessionCodec('secret');
  const now = 1_800_000_000_000;

  it('round-trips the claims', () => {
    expect(codec.decode(codec.encode({ userId: 42, issuedAt: now }), now + 1000)).toEqual({
      userId: 42,
      issuedAt: now,
    });
  });

  it('rejects a forged signature, another user id, another secret and garbage', () => {
    const cookie = codec.encode({ userId: 42, issuedAt: now });
    expect(codec.decode(cookie.replace(/^42\./, '1.'), now)).toBeNull();
    expect(codec.decode(`${cookie.slice(0, -2)}xx`, now)).toBeNull();
    expect(new SessionCodec('other').decode(cookie, now)).toBeNull();
    expect(codec.decode('not-a-session', now)).toBeNull();
    expect(codec.decode(undefined, now)).toBeNull();
  });

  it('expires after the maximum age', () => {
    const cookie = codec.encode({ userId: 1, issuedAt: now });
    expect(codec.decode(cookie, now + SESSION_MAX_AGE_S * 1000 + 1)).toBeNull();
  });
});
