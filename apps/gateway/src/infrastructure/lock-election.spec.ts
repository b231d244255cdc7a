import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type LockHolder, spawnLockHolder } from './lock-holder.fixture';
import { LockElection } from './lock-election';

jest.setTimeout(30_000);

describe('LockElection', () => {
  let dir: string;
  let file: string;
  const holders: LockHolder[] = [];
  const elections: LockElection[] = [];
  const elect = (retryMs = 50) => {
    const election = new LockElection(
      file,
      (error) => {
        throw error;
      },
      retryMs,
    );
    elections.push(election);
    return election;
  };
  const won = (election: LockElection) => new Promise<void>((resolve) => election.onWon(resolve));

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'tollgate-election-'));
    file = join(dir, 'projector.lock');
  });
  afterEach(async () => {
    for (const election of elections.splice(0)) election.release();
    await Promise.all(holders.splice(0).map((h) => h.kill()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('wins at once when nobody holds the lock, and tells late listeners at once', () => {
    const election = elect();
    const calls: string[] = [];
    election.onWon(() => calls.push('early'));
    election.start();
    expect(election.held).toBe(true);
    election.onWon(() => calls.push('late'));
    expect(calls).toEqual(['early', 'late']);
  });

  it('takes over when the holding process is killed with SIGKILL', async () => {
    const holder = spawnLockHolder('election', file);
    holders.push(holder);
    await holder.next((line) => line['won'] === true);

    const election = elect();
    election.start();
    expect(election.held).toBe(false);
    const taken = won(election);
    await holder.kill();
    await taken;
    expect(election.held).toBe(true);

    // And the other way round: a process waiting for its turn wins when this one releases.
    const next = spawnLockHolder('election', file);
    holders.push(next);
    await next.next((line) => line['started'] === true);
    expect(next.lines.some((line) => line['won'] === true)).toBe(false);
    election.release();
    await next.next((line) => line['won'] === true);
  });

  it('lets exactly one of two processes win', async () => {
    const a = spawnLockHolder('election', file);
    const b = spawnLockHolder('election', file);
    holders.push(a, b);
    await Promise.all([a, b].map((h) => h.next((line) => line['started'] === true)));
    await Promise.race([a, b].map((h) => h.next((line) => line['won'] === true)));
    const winners = [a, b].filter((h) => h.lines.some((line) => line['won'] === true));
    expect(winners).toHaveLength(1);
  });
});
