import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM_ACTOR } from '@tollgate/domain';
import { SqliteEventStore } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';
import { EmailCodes, MAX_FAILURES, RESEND_INTERVAL_MS } from './email-codes';

const TTL_MS = 600_000;
const SECRET = 'session-secret-of-every-process';
const meta: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'test', lang: 'en' };

/**
 * Each "process" is its own store handle on one SQLite file and its own EmailCodes, as two gateway
 * processes sharing a DATA_DIR; they share only the file and the session secret.
 */
describe('EmailCodes: mailed codes kept in the log', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-codes-'));
  const stores: SqliteEventStore[] = [];
  let file: string;
  let now = 1_000_000;

  const process = () => {
    const store = SqliteEventStore.open(file, { synchronous: 'normal' });
    stores.push(store);
    const codes = new EmailCodes(
      { mail: { smtpTimeoutMs: 1000, codeTtlMs: TTL_MS }, sessionSecret: SECRET },
      new StreamCommands(store),
    );
    codes.now = () => now;
    return { codes, store };
  };

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
    now = 1_000_000;
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a code issued through one process is verified through another, once', async () => {
    const [a, b, c] = [process(), process(), process()];
    await a.codes.issue('reset', 'Alice@Example.com', 'token-1', meta);
    // A check spends nothing (a registration refused for a taken name keeps its code) …
    expect(await b.codes.check('reset', 'alice@example.com', 'token-1', meta)).toBe(true);
    expect(await b.codes.consume('reset', ' ALICE@example.com ', 'token-1', meta)).toBe(true);
    // … a consumption does, for every process.
    expect(await c.codes.consume('reset', 'alice@example.com', 'token-1', meta)).toBe(false);
    expect(await a.codes.check('reset', 'alice@example.com', 'token-1', meta)).toBe(false);
  });

  it('two processes consuming one code at the same moment: exactly one succeeds', async () => {
    const [a, b] = [process(), process()];
    await a.codes.issue('reset', 'a@example.com', 'token-1', meta);
    // Both have folded the live code before either consumes.
    expect(await a.codes.check('reset', 'a@example.com', 'token-1', meta)).toBe(true);
    expect(await b.codes.check('reset', 'a@example.com', 'token-1', meta)).toBe(true);
    const results = await Promise.all([
      a.codes.consume('reset', 'a@example.com', 'token-1', meta),
      b.codes.consume('reset', 'a@example.com', 'token-1', meta),
      a.codes.consume('reset', 'a@example.com', 'token-1', meta),
      b.codes.consume('reset', 'a@example.com', 'token-1', meta),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const types = (await a.store.readStream(a.codes.streamOf('reset', 'a@example.com'))).map(
      (event) => event.type,
    );
    expect(types).toEqual(['EmailCodeIssued', 'EmailCodeConsumed']);
  });

  it('survives a restart: a new instance on a new handle still verifies', async () => {
    const first = process();
    await first.codes.issue('verify', 'a@example.com', '123456', meta);
    await first.store.close();
    stores.splice(stores.indexOf(first.store), 1);
    const restarted = process();
    expect(await restarted.codes.consume('verify', 'a@example.com', '123456', meta)).toBe(true);
  });

  it('expires after the configured validity, wherever it is checked', async () => {
    const [a, b] = [process(), process()];
    await a.codes.issue('verify', 'a@example.com', '123456', meta);
    now += TTL_MS - 1;
    expect(await b.codes.check('verify', 'a@example.com', '123456', meta)).toBe(true);
    now += 1;
    expect(await b.codes.check('verify', 'a@example.com', '123456', meta)).toBe(false);
    expect(await a.codes.consume('verify', 'a@example.com', '123456', meta)).toBe(false);
    expect(a.codes.validMinutes).toBe(10);
  });

  it('keeps purposes and addresses apart', async () => {
    const { codes } = process();
    await codes.issue('verify', 'a@example.com', '123456', meta);
    expect(await codes.check('reset', 'a@example.com', '123456', meta)).toBe(false);
    expect(await codes.check('verify', 'b@example.com', '123456', meta)).toBe(false);
  });

  it('refuses a new mail within 30 seconds at any process; then replaces the code', async () => {
    const [a, b] = [process(), process()];
    await a.codes.issue('verify', 'a@example.com', '111111', meta);
    now += 10_000;
    await expect(b.codes.issue('verify', 'a@example.com', '222222', meta)).rejects.toMatchObject({
      code: 'mail.resend_too_soon',
      params: { seconds: 20 },
    });
    now += RESEND_INTERVAL_MS - 10_000;
    await b.codes.issue('verify', 'a@example.com', '222222', meta);
    expect(await a.codes.check('verify', 'a@example.com', '111111', meta)).toBe(false);
    expect(await a.codes.check('verify', 'a@example.com', '222222', meta)).toBe(true);
  });

  it('a withdrawn code (the mail failed) is void and does not hold back a retry', async () => {
    const { codes } = process();
    await codes.issue('reset', 'a@example.com', 'token', meta);
    await codes.withdraw('reset', 'a@example.com', 'token', meta);
    expect(await codes.check('reset', 'a@example.com', 'token', meta)).toBe(false);
    await expect(codes.issue('reset', 'a@example.com', 'token2', meta)).resolves.toBeUndefined();
  });

  it('voids the code after five wrong guesses summed over processes', async () => {
    const [a, b] = [process(), process()];
    await a.codes.issue('verify', 'a@example.com', '123456', meta);
    for (let i = 0; i < MAX_FAILURES - 1; i += 1)
      expect(await [a, b][i % 2]!.codes.check('verify', 'a@example.com', '000000', meta)).toBe(
        false,
      );
    expect(await b.codes.check('verify', 'a@example.com', '123456', meta)).toBe(true);
    expect(await a.codes.check('verify', 'a@example.com', '000000', meta)).toBe(false);
    expect(await b.codes.check('verify', 'a@example.com', '123456', meta)).toBe(false);
  });

  it('stores neither the code nor the address in clear', async () => {
    const { codes, store } = process();
    await codes.issue('verify', 'secret-person@example.com', '987654', meta);
    await codes.check('verify', 'secret-person@example.com', '424242', meta);
    const stream = codes.streamOf('verify', 'secret-person@example.com');
    expect(stream).toMatch(/^mailcode-verify-[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify(
      (await store.readStream(stream)).map(({ type, data, metadata }) => ({
        type,
        data,
        metadata,
      })),
    );
    expect(stored).toContain('EmailCodeGuessFailed');
    expect(stored).not.toContain('987654');
    expect(stored).not.toContain('424242');
    expect(stored).not.toContain('secret-person');
  });

  it('makes six-digit codes and long URL-safe tokens', () => {
    expect(EmailCodes.newCode()).toMatch(/^\d{6}$/);
    expect(EmailCodes.newToken()).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(EmailCodes.newToken()).not.toBe(EmailCodes.newToken());
  });
});
