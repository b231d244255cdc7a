import { SESSION_MAX_AGE_S, SessionCodec } from './session-codec';

describe('SessionCodec', () => {
  const codec = new SessionCodec('secret');
  const now = 1_800_000_000_000;

  it('round-trips the claims, with a random session id per session', () => {
    const claims = SessionCodec.start(42, now);
    expect(codec.decode(codec.encode(claims), now + 1000)).toEqual(claims);
    expect(SessionCodec.start(42, now).sessionId).not.toBe(claims.sessionId);
  });

  it('rejects a forged signature, another user id or session id, another secret and garbage', () => {
    const cookie = codec.encode({ userId: 42, issuedAt: now, sessionId: 'abc' });
    expect(codec.decode(cookie.replace(/^42\./, '1.'), now)).toBeNull();
    expect(codec.decode(cookie.replace('.abc.', '.abd.'), now)).toBeNull();
    expect(codec.decode(`${cookie.slice(0, -2)}xx`, now)).toBeNull();
    expect(new SessionCodec('other').decode(cookie, now)).toBeNull();
    expect(codec.decode('not-a-session', now)).toBeNull();
    expect(codec.decode(undefined, now)).toBeNull();
    // The old three-part form (no session id) is no longer a session.
    expect(codec.decode(`42.${now}.signature`, now)).toBeNull();
  });

  it('expires after the maximum age', () => {
    const cookie = codec.encode(SessionCodec.start(1, now));
    expect(codec.decode(cookie, now + SESSION_MAX_AGE_S * 1000 + 1)).toBeNull();
  });
});
