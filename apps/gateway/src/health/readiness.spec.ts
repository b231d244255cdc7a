import type { EventStore, Position } from '@tollgate/event-store';
import type { ProjectionHost, ReadStore } from '@tollgate/read-store';
import type { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { ReadinessProbe } from './readiness';

const at = (commit: number): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

function probe(options: {
  head: Position | null;
  projected: number;
  cached: number;
  readStore?: () => Promise<unknown>;
}) {
  const eventStore = { headPosition: () => Promise.resolve(options.head) } as unknown as EventStore;
  const readStore = {
    collection: () => ({ get: options.readStore ?? (() => Promise.resolve(null)) }),
  } as unknown as ReadStore;
  const reached = (current: number) => (p: Position) => BigInt(current) >= p.commit;
  const host = { hasReached: reached(options.projected) } as unknown as ProjectionHost;
  const caches = { hasReached: reached(options.cached) } as unknown as CacheFeed;
  return new ReadinessProbe(eventStore, readStore, host, caches);
}

describe('ReadinessProbe', () => {
  it('is not ready before start-up recorded the log head', async () => {
    const ready = await probe({ head: at(10), projected: 10, cached: 10 }).check();
    expect(ready.ready).toBe(false);
    expect(ready.checks.projections).toEqual({ ok: false, detail: 'starting' });
  });

  it('is ready once the read models and the caches reached the start-up head', async () => {
    const p = probe({ head: at(10), projected: 10, cached: 12 });
    await p.onApplicationBootstrap();
    expect(await p.check()).toEqual({
      ready: true,
      checks: {
        storage: { ok: true },
        projections: { ok: true },
        caches: { ok: true },
        shutdown: { ok: true },
      },
    });
  });

  it('names what is behind, what does not answer, and a shutdown', async () => {
    const behind = probe({ head: at(10), projected: 4, cached: 10 });
    await behind.onApplicationBootstrap();
    expect((await behind.check()).checks.projections).toEqual({
      ok: false,
      detail: 'behind the start-up head 10',
    });

    const broken = probe({
      head: null,
      projected: 0,
      cached: 0,
      readStore: () => Promise.reject(new Error('database is closed')),
    });
    await broken.onApplicationBootstrap();
    const answer = await broken.check();
    expect(answer.ready).toBe(false);
    expect(answer.checks.storage).toEqual({ ok: false, detail: 'database is closed' });
    expect(answer.checks.projections).toEqual({ ok: true });

    const leaving = probe({ head: null, projected: 0, cached: 0 });
    await leaving.onApplicationBootstrap();
    leaving.beforeApplicationShutdown();
    expect((await leaving.check()).checks.shutdown).toEqual({ ok: false, detail: 'shutting down' });
  });
});
