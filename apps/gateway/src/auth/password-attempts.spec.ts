import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore } from '@tollgate/event-store';
import type { AppConfig } from '../config/app-config';
import { StreamCommands } from '../infrastructure/stream-commands';
import { ApiError } from '../shared/api-error';
import { PasswordAttempts } from './password-attempts';

const WINDOW_MS = 60_000;
const config = (max: number, scaleOut = false) =>
  ({
    passwordAttempts: { max, windowMs: WINDOW_MS },
    scaleOut,
    sessionSecret: 'shared-session-secret',
  }) as unknown as AppConfig;
/** A single gateway never touches the log for password attempts. */
const noLog = {} as StreamCommands;

describe('PasswordAttempts, one process (in memory)', () => {
  it('refuses every check of a key after `max` failures until the window ends', () => {
    const attempts = new PasswordAttempts(config(2), noLog);
    attempts.recordFailure('login:a', 0);
    attempts.assertAllowed('login:a', 1);
    attempts.recordFailure('login:a', 2);
    expect(() => attempts.assertAllowed('login:a', 3)).toThrow(ApiError);
    attempts.assertAllowed('login:b', 3); // other keys are untouched
    attempts.assertAllowed('login:a', 60_001); // a new window
  });

  it('parallel checks each take a slot: a burst cannot outrun the limit', async () => {
    const attempts = new PasswordAttempts(config(2), noLog);
    const slow = () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 10));
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => attempts.check('burst', slow)),
    );
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'rejected',
      'rejected',
    ]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => r.reason)).toEqual(
      Array.from({ length: 3 }, () => expect.any(ApiError)),
    );
  });

  it('a success clears the key; 0 disables the limit', async () => {
    const attempts = new PasswordAttempts(config(2), noLog);
    expect(await attempts.check('k', async () => false)).toBe(false);
    expect(await attempts.check('k', async () => true)).toBe(true);
    expect(await attempts.check('k', async () => false)).toBe(false);
    expect(await attempts.check('k', async () => true)).toBe(true);
    const off = new PasswordAttempts(config(0), noLog);
    for (let i = 0; i < 10; i += 1) off.recordFailure('k');
    off.assertAllowed('k');
  });
});

/** Each "process" is its own store handle on one SQLite file, as gateways sharing a DATA_DIR. */
describe('PasswordAttempts, scale-out (counted in the log)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tollgate-pwattempts-'));
  const stores: SqliteEventStore[] = [];
  let file: string;

  const process = (max: number) => {
    const store = SqliteEventStore.open(file, { synchronous: 'normal' });
    stores.push(store);
    return new PasswordAttempts(config(max, true), new StreamCommands(store));
  };
  const wrong = async () => false;
  const right = async () => true;

  beforeEach(() => {
    file = join(dir, `events-${Date.now()}-${Math.random()}.sqlite`);
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('locks the key out after `max` failures summed over two processes', async () => {
    const [a, b] = [process(4), process(4)];
    for (const attempts of [a, b, a, b])
      expect(await attempts.check('login:alice', wrong)).toBe(false);
    // The fifth try, right password or not, at either process.
    await expect(a.check('login:alice', right)).rejects.toMatchObject({ status: 429 });
    await expect(b.check('login:alice', right)).rejects.toBeInstanceOf(ApiError);
    // Another key is untouched; a restarted process still sees the lock-out.
    expect(await b.check('login:bob', right)).toBe(true);
    await expect(process(4).check('login:alice', right)).rejects.toMatchObject({ status: 429 });
  });

  it('parallel guesses on two processes each take a slot: exactly `max` are checked', async () => {
    const [a, b] = [process(3), process(3)];
    let checked = 0;
    const slow = () =>
      new Promise<boolean>((resolve) => {
        checked += 1;
        setTimeout(() => resolve(false), 10);
      });
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => [a, b][i % 2]!.check('login:burst', slow)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(checked).toBe(3);
  });

  it('a success clears the count for every process, and the password is never stored', async () => {
    const [a, b] = [process(2), process(2)];
    expect(await a.check('login:carol', wrong)).toBe(false);
    expect(await b.check('login:carol', right)).toBe(true);
    expect(await a.check('login:carol', wrong)).toBe(false);
    expect(await b.check('login:carol', wrong)).toBe(false);
    await expect(a.check('login:carol', right)).rejects.toMatchObject({ status: 429 });
    const all = (await stores[0]!.readAll()).map(({ type, data, streamId }) => ({
      type,
      data,
      streamId,
    }));
    const stored = JSON.stringify(all);
    expect(all.map((e) => e.type)).toEqual([
      'PasswordAttemptFailed',
      'PasswordAttemptFailed',
      'PasswordAttemptsCleared',
      'PasswordAttemptFailed',
      'PasswordAttemptFailed',
    ]);
    expect(stored).not.toContain('carol');
  });
});
