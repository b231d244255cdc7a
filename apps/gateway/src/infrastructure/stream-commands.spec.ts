import { SqliteEventStore } from '@tollgate/event-store';
import { SYSTEM_ACTOR, billingDecider, sequenceDecider } from '@tollgate/domain';
import type { RequestMeta } from '../shared/request-meta';
import { derivedId } from './derived-id';
import { SNAPSHOT_EVERY, StreamCommands, snapshotStream } from './stream-commands';
import { RecentIdsEventStore } from './testing/recent-ids-event-store';

const meta: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: 'req-1', lang: 'en' };
const grant = (amount: number) =>
  ({ type: 'GrantQuota', userId: 1, amount, reason: 'topup' }) as const;

/** Counts the events each readStream call returns: what a command really reads. */
function counting(store: SqliteEventStore) {
  const reads: number[] = [];
  const original = store.readStream.bind(store);
  store.readStream = async (id, options) => {
    const events = await original(id, options);
    reads.push(events.length);
    return events;
  };
  return reads;
}

describe('StreamCommands', () => {
  let store: SqliteEventStore;
  beforeEach(() => {
    store = SqliteEventStore.open(':memory:');
  });
  afterEach(() => store.close());

  it('folds, decides and appends; the next command reads only what came after', async () => {
    const commands = new StreamCommands(store);
    for (let i = 0; i < 20; i += 1)
      await commands.execute('billing-1', billingDecider, grant(10), meta);
    const reads = counting(store);
    const result = await commands.execute('billing-1', billingDecider, grant(5), meta);
    expect(result.state.quota).toBe(205);
    expect(reads).toEqual([0]);
  });

  it('picks up appends made by another process through the tail read', async () => {
    const mine = new StreamCommands(store);
    const other = new StreamCommands(store);
    await mine.execute('billing-1', billingDecider, grant(10), meta);
    await other.execute('billing-1', billingDecider, grant(20), meta);
    const result = await mine.execute('billing-1', billingDecider, grant(1), meta);
    expect(result.state.quota).toBe(31);
    expect(await store.streamRevision('billing-1')).toBe(2);
  });

  it('derives event ids from the command id and names it as causation; a retried command appends nothing', async () => {
    const commands = new StreamCommands(store);
    await commands.execute('billing-1', billingDecider, grant(10), meta, { commandId: 'cmd-1' });
    const again = await commands.execute('billing-1', billingDecider, grant(10), meta, {
      commandId: 'cmd-1',
    });
    expect(again.events).toEqual([]);
    const events = await store.readStream('billing-1');
    expect(events).toHaveLength(1);
    expect(events[0]!.id).toBe(derivedId('cmd-1', 0));
    expect(events[0]!.metadata).toMatchObject({ correlationId: 'req-1', causationId: 'cmd-1' });
  });

  it('takes the causation from an event when one caused the command', async () => {
    const commands = new StreamCommands(store);
    await commands.execute('billing-1', billingDecider, grant(10), meta, {
      commandId: 'cmd-2',
      causationId: 'event-9',
    });
    const [event] = await store.readStream('billing-1');
    expect(event!.metadata).toMatchObject({ causationId: 'event-9', commandId: 'cmd-2' });
  });

  it('snapshots long streams so a cold start folds a bounded number of events', async () => {
    const warm = new StreamCommands(store);
    for (let i = 0; i < SNAPSHOT_EVERY + 30; i += 1)
      await warm.execute('seq-user', sequenceDecider, { type: 'AllocateId' }, meta);
    expect((await store.readStream(snapshotStream('seq-user'))).length).toBe(1);
    const cold = new StreamCommands(store);
    const reads = counting(store);
    const result = await cold.execute('seq-user', sequenceDecider, { type: 'AllocateId' }, meta);
    expect(result.state.last).toBe(SNAPSHOT_EVERY + 31);
    // The last snapshot (1 event) then the events after it.
    expect(reads[0]).toBe(1);
    expect(reads[1]).toBeLessThanOrEqual(SNAPSHOT_EVERY);
  });

  it('serialises concurrent commands on one stream (no lost update)', async () => {
    const commands = new StreamCommands(store);
    await Promise.all(
      Array.from({ length: 50 }, () =>
        commands.execute('seq-token', sequenceDecider, { type: 'AllocateId' }, meta),
      ),
    );
    const { state } = await new StreamCommands(store).load('seq-token', sequenceDecider);
    expect(state.last).toBe(50);
  });

  describe('on an engine that forgets event ids (EventStoreDB past its recent-id cache)', () => {
    it('a caller-given command id is the idempotency key: repeated later, the command appends nothing', async () => {
      const esdb = new RecentIdsEventStore();
      const commands = new StreamCommands(esdb);
      const credit = { commandId: 'credit:topup:T1' };
      await commands.execute('billing-1', billingDecider, grant(10), meta, credit);
      // Other commands move the stream on: the repeat is at a later revision.
      await commands.execute('billing-1', billingDecider, grant(1), meta);
      await commands.execute('billing-1', billingDecider, grant(1), meta);
      const again = await new StreamCommands(esdb).execute(
        'billing-1',
        billingDecider,
        grant(10),
        meta,
        credit,
      );
      expect(again.events).toEqual([]);
      const ids = (await esdb.readStream('billing-1')).map((e) => e.id);
      expect(ids.filter((id) => id === derivedId(credit.commandId, 0))).toHaveLength(1);
      expect(ids).toHaveLength(3);
      const keys = esdb.calls.map((c) => c.options?.idempotencyKey);
      expect(keys).toEqual([credit.commandId, undefined, undefined, credit.commandId]);
    });
  });
});
