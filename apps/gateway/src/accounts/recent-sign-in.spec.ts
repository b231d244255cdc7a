import { SessionCodec } from '../auth/session-codec';
import { PASSWORD_CHANGE_GRACE_MS, signedInRecently } from './recent-sign-in';

describe('signedInRecently: password change without the current password', () => {
  const signedInAt = Date.parse('2026-01-15T08:00:00Z');
  const session = SessionCodec.start(7, signedInAt);

  it('allows it up to ten minutes after signing in', () => {
    expect(signedInRecently(session, signedInAt)).toBe(true);
    expect(signedInRecently(session, signedInAt + PASSWORD_CHANGE_GRACE_MS)).toBe(true);
    expect(PASSWORD_CHANGE_GRACE_MS).toBe(600_000);
  });

  it('refuses it later, and always for an access token (no session)', () => {
    expect(signedInRecently(session, signedInAt + PASSWORD_CHANGE_GRACE_MS + 1)).toBe(false);
    expect(signedInRecently(null, signedInAt)).toBe(false);
  });
});
