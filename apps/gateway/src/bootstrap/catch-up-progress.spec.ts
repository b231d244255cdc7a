import type { ProjectionHost } from '@tollgate/read-store';
import { reportCatchUp } from './catch-up-progress';

/** Two runners whose positions and advance listeners the test drives. */
function fakeHost(commits: bigint[]) {
  const listeners = new Set<() => void>();
  const host = {
    runners: commits.map((_, i) => ({
      position: () => ({ commit: commits[i]!, prepare: commits[i]! }),
      onAdvance: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    })),
  } as unknown as ProjectionHost;
  return { host, advance: () => listeners.forEach((listener) => listener()), listeners };
}

describe('reportCatchUp', () => {
  it('reports the mean progress of the projections against the head, at most once per interval, until stopped', () => {
    const commits = [80n, 40n];
    const { host, advance, listeners } = fakeHost(commits);
    let clock = 0;
    const lines: string[] = [];
    const stop = reportCatchUp(
      host,
      { commit: 200n, prepare: 200n },
      (l) => lines.push(l),
      1000,
      () => clock,
    );
    clock = 500;
    advance();
    clock = 1200;
    advance();
    advance();
    commits[1] = 200n;
    clock = 2300;
    advance();
    stop();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(' 30% 60/200');
    expect(lines[1]).toContain(' 70% 140/200');
    expect(listeners.size).toBe(0);
  });

  it('says nothing for an empty log', () => {
    const { host, listeners } = fakeHost([0n]);
    const lines: string[] = [];
    reportCatchUp(host, null, (l) => lines.push(l))();
    expect(lines).toEqual([]);
    expect(listeners.size).toBe(0);
  });
});
