import type { ReadStoreSession } from '../read-store.port';
import { BatchMemo } from './batch-memo';

const session = () => ({ collection: () => undefined }) as unknown as ReadStoreSession;

describe('BatchMemo', () => {
  it('loads a key once per session, and again in another session', async () => {
    const memo = new BatchMemo<string>();
    let loads = 0;
    const load = async () => `v${++loads}`;
    const first = session();
    expect(await memo.get(first, 'k', load)).toBe('v1');
    expect(await memo.get(first, 'k', load)).toBe('v1');
    expect(await memo.get(session(), 'k', load)).toBe('v2');
    expect(loads).toBe(2);
  });

  it('serves what was set in the session instead of loading', async () => {
    const memo = new BatchMemo<string | null>();
    const s = session();
    memo.set(s, 'k', 'written');
    expect(await memo.get(s, 'k', async () => 'stored')).toBe('written');
    memo.set(s, 'k', null);
    expect(await memo.get(s, 'k', async () => 'stored')).toBeNull();
  });

  it('gives a value the batch holds as it is, and loads a missing one once behind a promise', async () => {
    const memo = new BatchMemo<string>();
    const s = session();
    let loads = 0;
    const load = async () => `loaded${++loads}`;
    const missing = memo.get(s, 'k', load);
    expect(missing).toBeInstanceOf(Promise);
    expect(await missing).toBe('loaded1');
    expect(memo.get(s, 'k', load)).toBe('loaded1');
    memo.set(s, 'j', 'written');
    expect(memo.get(s, 'j', load)).toBe('written');
    expect(loads).toBe(1);
  });
});
