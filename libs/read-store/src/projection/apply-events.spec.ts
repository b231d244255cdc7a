import { recordedEvent } from '@tollgate/testing/recorded-event';
import type { RecordedEvent } from '@tollgate/event-store/event-store.port';
import { SqliteReadStore } from '../sqlite/sqlite-read-store';
import { applyEvents, ProjectionFailure } from './apply-events';
import type { Projection } from './projection';

type Step = { n: number; late?: boolean; fail?: boolean };

/**
 * A projection whose batched `apply` answers some events at once (it only buffers) and others
 * later (a promise, as when it reads first): `trail` is the order the updates were buffered in.
 */
function mixedProjection(trail: number[]): Projection {
  const buffer = (
    event: RecordedEvent,
    writes: Parameters<NonNullable<Projection['batched']>['apply']>[1],
  ) => {
    const { n, fail } = event.data as Step;
    if (fail) throw new Error(`step ${n} refused`);
    trail.push(n);
    writes.update('trail', 'all', { $inc: { steps: 1 }, $set: { last: n } }, { upsert: true });
  };
  return {
    name: 'mixed',
    version: 1,
    collections: [{ name: 'trail' }],
    eventTypes: ['Step', 'Mark'],
    async apply(event, session) {
      trail.push(-(event.data as Step).n);
      await session.collection('trail').put({ _id: `mark-${(event.data as Step).n}` });
    },
    batched: {
      eventTypes: ['Step'],
      apply(event, writes) {
        if (!(event.data as Step).late) return buffer(event, writes);
        return new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() =>
          buffer(event, writes),
        );
      },
    },
  };
}

describe('applyEvents', () => {
  const store = new SqliteReadStore(':memory:');
  beforeAll(() => store.declare([{ name: 'trail' }]));
  afterAll(() => store.close());

  it('applies batched events that answer at once and those that answer later in log order', async () => {
    const trail: number[] = [];
    const events = [
      recordedEvent('Step', { n: 1 }),
      recordedEvent('Step', { n: 2, late: true }),
      recordedEvent('Step', { n: 3 }),
      recordedEvent('Mark', { n: 4 }),
      recordedEvent('Step', { n: 5, late: true }),
      recordedEvent('Step', { n: 6 }),
    ];
    await store.transaction((session) =>
      applyEvents(mixedProjection(trail), events, session, store),
    );
    expect(trail).toEqual([1, 2, 3, -4, 5, 6]);
    expect(await store.collection('trail').get('all')).toEqual({ _id: 'all', steps: 5, last: 6 });
    expect(await store.collection('trail').get('mark-4')).toEqual({ _id: 'mark-4' });
  });

  it('a batched apply that throws at once or rejects later fails the batch as the projection', async () => {
    for (const failing of [
      { n: 8, fail: true },
      { n: 8, fail: true, late: true },
    ]) {
      const trail: number[] = [];
      const events = [recordedEvent('Step', { n: 7 }), recordedEvent('Step', failing)];
      const applied = store.transaction((session) =>
        applyEvents(mixedProjection(trail), events, session, store),
      );
      await expect(applied).rejects.toThrow(ProjectionFailure);
      await expect(applied).rejects.toThrow('Projection mixed failed: step 8 refused');
      expect(trail).toEqual([7]);
    }
    // Nothing of the failed batches landed.
    expect(await store.collection('trail').get('all')).toEqual({ _id: 'all', steps: 5, last: 6 });
  });
});
