import type { AppConfig } from '../config/app-config';
import { ApiError } from '../shared/api-error';
import { PasswordAttempts } from './password-attempts';

const config = (max: number) =>
  ({ passwordAttempts: { max, windowMs: 60_000 } }) as unknown as AppConfig;

describe('PasswordAttempts', () => {
  it('refuses every check of a key after `max` failures until the window ends', () => {
    const attempts = new PasswordAttempts(config(2));
    attempts.recordFailure('login:a', 0);
    attempts.assertAllowed('login:a', 1);
    attempts.recordFailure('login:a', 2);
    expect(() => attempts.assertAllowed('login:a', 3)).toThrow(ApiError);
    attempts.assertAllowed('login:b', 3); // other keys are untouched
    attempts.assertAllowed('login:a', 60_001); // a new window
  });

  it('parallel checks each take a slot: a burst cannot outrun the limit', async () => {
    const attempts = new PasswordAttempts(config(2));
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
    const attempts = new PasswordAttempts(config(2));
    expect(await attempts.check('k', async () => false)).toBe(false);
    expect(await attempts.check('k', async () => true)).toBe(true);
    expect(await attempts.check('k', async () => false)).toBe(false);
    expect(await attempts.check('k', async () => true)).toBe(true);
    const off = new PasswordAttempts(config(0));
    for (let i = 0; i < 10; i += 1) off.recordFailure('k');
    off.assertAllowed('k');
  });
});
