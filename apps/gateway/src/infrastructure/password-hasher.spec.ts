import { PasswordHasher, PasswordQueueFullError } from './password-hasher';

describe('PasswordHasher (worker pool)', () => {
  // A small memory cost keeps the test fast; the code path is the production one.
  const hasher = new PasswordHasher(1024, 2, 8);
  afterAll(() => hasher.close());

  it('hashes with argon2id and verifies, in worker threads', async () => {
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=2,p=1\$/);
    expect(await hasher.verify('correct horse', hash)).toBe(true);
    expect(await hasher.verify('wrong horse', hash)).toBe(false);
    expect(await hasher.verify('x', 'not-a-hash')).toBe(false);
  });

  it('runs many jobs through the pool and keeps each answer with its job', async () => {
    const passwords = Array.from({ length: 8 }, (_, i) => `password-${i}`);
    const hashes = await Promise.all(passwords.map((p) => hasher.hash(p)));
    const checks = await Promise.all(
      passwords.map((p, i) => hasher.verify(p, hashes[(i + 1) % passwords.length]!)),
    );
    expect(checks.every((ok) => !ok)).toBe(true);
    expect(await Promise.all(passwords.map((p, i) => hasher.verify(p, hashes[i]!)))).toEqual(
      passwords.map(() => true),
    );
  });

  it('keeps the main thread free while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => (ticks += 1), 1);
    await Promise.all(Array.from({ length: 6 }, (_, i) => hasher.hash(`p${i}`)));
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(0);
  });

  it('verifyNothing costs a verification and never matches', async () => {
    expect(await hasher.verifyNothing('anything')).toBe(false);
  });

  it('stops a worker left idle for idleMs, and starts one again for the next job', async () => {
    const lazy = new PasswordHasher(1024, 1, 8, 100);
    try {
      const hash = await lazy.hash('first');
      const exited = new Promise<void>((resolve) => {
        const worker = (lazy as unknown as { idle: import('node:worker_threads').Worker[] })
          .idle[0]!;
        worker.once('exit', () => resolve());
      });
      await exited; // idle for 100 ms: terminated
      expect((lazy as unknown as { idle: unknown[] }).idle).toHaveLength(0);
      expect(await lazy.verify('first', hash)).toBe(true); // a fresh worker answers
      expect(await lazy.verify('other', hash)).toBe(false);
    } finally {
      await lazy.close();
    }
  });

  it('refuses work beyond its queue instead of growing without bound', async () => {
    const small = new PasswordHasher(1024, 1, 2);
    const jobs = Array.from({ length: 6 }, (_, i) =>
      small.hash(`p${i}`).then(
        () => 'done',
        (e: unknown) => (e instanceof PasswordQueueFullError ? 'full' : 'other'),
      ),
    );
    const outcomes = await Promise.all(jobs);
    expect(outcomes.filter((o) => o === 'full').length).toBeGreaterThan(0);
    expect(outcomes).toContain('done');
    await small.close();
  });
});
