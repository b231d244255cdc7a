import { EmailCodes, MAX_ENTRIES, MAX_FAILURES, RESEND_INTERVAL_MS } from './email-codes';

const TTL_MS = 600_000;

function codes() {
  const store = new EmailCodes({ mail: { smtpTimeoutMs: 1000, codeTtlMs: TTL_MS } });
  let now = 1_000_000;
  store.now = () => now;
  return { store, advance: (ms: number) => (now += ms) };
}

describe('EmailCodes', () => {
  it('accepts the issued code for the same address in any case, until consumed', () => {
    const { store } = codes();
    store.issue('verify', 'Alice@Example.com', '123456');
    expect(store.check('verify', 'alice@example.com', '123456')).toBe(true);
    // A check does not spend the code (a refused registration keeps it) …
    expect(store.check('verify', ' ALICE@example.com ', '123456')).toBe(true);
    store.consume('verify', 'alice@example.com');
    // … consuming does.
    expect(store.check('verify', 'alice@example.com', '123456')).toBe(false);
  });

  it('keeps purposes and addresses apart', () => {
    const { store } = codes();
    store.issue('verify', 'a@example.com', '123456');
    expect(store.check('reset', 'a@example.com', '123456')).toBe(false);
    expect(store.check('verify', 'b@example.com', '123456')).toBe(false);
  });

  it('expires after the configured validity', () => {
    const { store, advance } = codes();
    store.issue('verify', 'a@example.com', '123456');
    advance(TTL_MS - 1);
    expect(store.check('verify', 'a@example.com', '123456')).toBe(true);
    advance(1);
    expect(store.check('verify', 'a@example.com', '123456')).toBe(false);
    expect(store.size).toBe(0);
    expect(store.validMinutes).toBe(10);
  });

  it('refuses a new mail within 30 seconds, saying how long to wait; then replaces the code', () => {
    const { store, advance } = codes();
    store.issue('verify', 'a@example.com', '111111');
    advance(10_000);
    expect(() => store.issue('verify', 'a@example.com', '222222')).toThrow(
      expect.objectContaining({ code: 'mail.resend_too_soon', params: { seconds: 20 } }),
    );
    advance(RESEND_INTERVAL_MS - 10_000);
    store.issue('verify', 'a@example.com', '222222');
    expect(store.check('verify', 'a@example.com', '111111')).toBe(false);
    expect(store.check('verify', 'a@example.com', '222222')).toBe(true);
  });

  it('a withdrawn code (the mail failed) is void and does not hold back a retry', () => {
    const { store } = codes();
    store.issue('reset', 'a@example.com', 'token');
    store.withdraw('reset', 'a@example.com');
    expect(store.check('reset', 'a@example.com', 'token')).toBe(false);
    expect(() => store.issue('reset', 'a@example.com', 'token2')).not.toThrow();
  });

  it('voids the code after five wrong guesses', () => {
    const { store } = codes();
    store.issue('verify', 'a@example.com', '123456');
    for (let i = 0; i < MAX_FAILURES - 1; i += 1)
      expect(store.check('verify', 'a@example.com', '000000')).toBe(false);
    expect(store.check('verify', 'a@example.com', '123456')).toBe(true);
    for (let i = 0; i < MAX_FAILURES; i += 1) store.check('verify', 'a@example.com', '000000');
    expect(store.check('verify', 'a@example.com', '123456')).toBe(false);
  });

  it('keeps only digests, and a bounded number of them', () => {
    const { store, advance } = codes();
    store.issue('verify', 'a@example.com', '987654');
    expect(
      JSON.stringify([...(store as unknown as { entries: Map<string, unknown> }).entries]),
    ).not.toContain('987654');
    for (let i = 0; i < MAX_ENTRIES + 5; i += 1) store.issue('verify', `u${i}@example.com`, '1');
    expect(store.size).toBe(MAX_ENTRIES);
    advance(TTL_MS);
    store.issue('verify', 'late@example.com', '1');
    expect(store.size).toBe(1);
  });

  it('makes six-digit codes and long URL-safe tokens', () => {
    expect(EmailCodes.newCode()).toMatch(/^\d{6}$/);
    expect(EmailCodes.newToken()).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(EmailCodes.newToken()).not.toBe(EmailCodes.newToken());
  });
});
