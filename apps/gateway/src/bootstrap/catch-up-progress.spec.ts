import { reportCatchUp } from './catch-up-progress';

/** A host whose position and advance listeners the test drives. */
function fakeHost(commit: { value: bigint }) {
  const listeners = new Set<() => void>();
  const host = {
    position: () => ({ commit: commit.value, prepare: commit.value }),
    onAdvance: (listener: () => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return { host, advance: () => listeners.forEach((listener) => listener()), listeners };
}

describe('reportCatchUp', () => {
  it('reports the projections’ progress against the head, at most once per interval, until stopped', () => {
    const commit = { value: 60n };
    const { host, advance, listeners } = fakeHost(commit);
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
    commit.value = 140n;
    clock = 2300;
    advance();
    stop();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(' 30% 60/200');
    expect(lines[1]).toContain(' 70% 140/200');
    expect(listeners.size).toBe(0);
  });

  it('says nothing for an empty log', () => {
    const { host, listeners } = fakeHost({ value: 0n });
    const lines: string[] = [];
    reportCatchUp(host, null, (l) => lines.push(l))();
    expect(lines).toEqual([]);
    expect(listeners.size).toBe(0);
  });
});
