import type { EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  applyEvents,
  rebuildProjections,
  type ReadStore,
} from '@tollgate/read-store';
import {
  EMPTY_CHANNEL_CONFIG,
  type ChannelEvent,
  type SealedSecret,
  type TaskRefunded,
} from '@tollgate/domain';
import { SecretBox } from '../infrastructure/secret-box';
import { ALL_PROJECTIONS, allProjections } from '../projection-registry';
import {
  ABILITIES,
  CHANNEL_KEYS,
  CHANNELS,
  type ChannelDocument,
  type ChannelKeysDocument,
} from './channel.document';
import {
  ROUTING_FIX_STREAM,
  ROUTING_REBUILD_REQUESTED,
  channelsProjection,
} from './channels.projection';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';

const meta = {
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: '2026-01-15T08:00:00.000Z',
};
const created = (channelId: number, groups: string[], models: string[]): ChannelEvent => ({
  type: 'ChannelCreated',
  data: {
    channelId,
    config: { ...EMPTY_CHANNEL_CONFIG, name: `c${channelId}`, groups, models, priority: channelId },
    key: { cipher: 'sealed', hash: `hash${channelId}` },
    status: 1,
    createdTime: 100,
  },
});

async function append(
  store: EventStore,
  stream: string,
  events: Array<{ type: string; data: unknown }>,
) {
  return appendEvents(store, stream, events, meta);
}

/** A complete usage receipt: every projection in ALL_PROJECTIONS reads its own fields of it. */
let receiptSeq = 0;
const receipt = (channelId: number, quota: number) =>
  usageReceipt({
    requestId: `req-${++receiptSeq}`,
    tokenId: 0,
    tokenName: '',
    channelId,
    completionTokens: 2,
    quota,
  });

describe('channels projection', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  const abilities = () =>
    read
      .collection(ABILITIES)
      .find({}, { sort: { _id: 1 } })
      .then((rows) => rows.map((r) => `${String(r['_id'])}:${String(r['enabled'])}`));

  it('documents, abilities, status reasons, tests, balances, used quota, deletes', async () => {
    await append(events, 'channel-1', [
      created(1, ['default', 'vip'], ['m1', 'm2']),
      {
        type: 'ChannelStatusChanged',
        data: { channelId: 1, from: 1, to: 3, reason: '401', time: 5 },
      },
      {
        type: 'ChannelTested',
        data: {
          channelId: 1,
          model: 'm1',
          success: false,
          responseTimeMs: 80,
          message: 'x',
          testTime: 6,
        },
      },
      { type: 'ChannelBalanceUpdated', data: { channelId: 1, balance: 9.5, updatedTime: 7 } },
    ]);
    await append(events, 'channel-2', [created(2, ['default'], ['m1'])]);
    const usage = await append(events, 'usage-p-2026011508', [
      { type: 'RequestRelayed', data: receipt(1, 30) },
      { type: 'RequestRelayed', data: receipt(1, 12) },
    ]);
    expect(await host.waitFor(usage.position, 2000)).toBe(true);
    const doc = await read.collection<ChannelDocument>(CHANNELS).get('1');
    expect(doc).toMatchObject({
      id: 1,
      key: '',
      key_hash: 'hash1',
      models: 'm1,m2',
      group: 'default,vip',
      status: 3,
      other_info: JSON.stringify({ status_reason: '401', status_time: 5 }),
      response_time: 80,
      test_time: 6,
      balance: 9.5,
      balance_updated_time: 7,
      used_quota: 42,
      created_time: 100,
    });
    expect(await abilities()).toEqual([
      'default|m1|1:false',
      'default|m1|2:true',
      'default|m2|1:false',
      'vip|m1|1:false',
      'vip|m2|1:false',
    ]);
    const gone = await append(events, 'channel-2', [
      { type: 'ChannelDeleted', data: { channelId: 2 } },
    ]);
    expect(await host.waitFor(gone.position, 2000)).toBe(true);
    expect(await read.collection(CHANNELS).get('2')).toBeNull();
    expect(await abilities()).not.toContain('default|m1|2:true');
  });

  it('an imported channel: its whole state, its used quota counted on from the source', async () => {
    await append(events, 'channel-5', [
      {
        type: 'ChannelImported',
        data: {
          channelId: 5,
          config: {
            ...EMPTY_CHANNEL_CONFIG,
            type: 43,
            name: 'deepseek',
            groups: ['default', 'vip'],
            models: ['deepseek-chat'],
            priority: 3,
          },
          key: { cipher: 'sealed', hash: 'hash5' },
          status: 3,
          statusReason: 'quota',
          statusTime: 9,
          createdTime: 100,
          testTime: 8,
          responseTimeMs: 300,
          balance: 1.5,
          balanceUpdatedTime: 7,
          usedQuota: 1000,
          sourceType: 36,
          source: { project: 'one-api', table: 'channels', rowId: 5, importedAt: 'x' },
        },
      },
    ]);
    const usage = await append(events, 'usage-p-2026011508', [
      { type: 'RequestRelayed', data: receipt(5, 25) },
    ]);
    expect(await host.waitFor(usage.position, 2000)).toBe(true);
    expect(await read.collection<ChannelDocument>(CHANNELS).get('5')).toMatchObject({
      id: 5,
      type: 43,
      key: '',
      key_hash: 'hash5',
      status: 3,
      other_info: JSON.stringify({ status_reason: 'quota', status_time: 9 }),
      response_time: 300,
      test_time: 8,
      balance: 1.5,
      used_quota: 1025,
      created_time: 100,
      group: 'default,vip',
    });
    expect(await abilities()).toEqual([
      'default|deepseek-chat|5:false',
      'vip|deepseek-chat|5:false',
    ]);
  });

  it('applying the same events twice changes nothing', async () => {
    const last = await append(events, 'channel-1', [
      created(1, ['default'], ['m1']),
      { type: 'ChannelUpdated', data: { channelId: 1, changes: { models: ['m1', 'm3'] } } },
      { type: 'RequestRelayed', data: receipt(1, 5) },
    ]);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    const once = { doc: await read.collection(CHANNELS).get('1'), abilities: await abilities() };
    const replay = await events.readStream('channel-1');
    // Through the runner's own path, merged (atomic store) and one by one (store without transactions).
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(channelsProjection(), replay, session, { atomicTransactions }),
      );
    expect({ doc: await read.collection(CHANNELS).get('1'), abilities: await abilities() }).toEqual(
      once,
    );
  });

  it('a fix request recomputes every ability row; a rebuild equals incremental application', async () => {
    await append(events, 'channel-1', [created(1, ['default'], ['m1'])]);
    await append(events, 'channel-2', [created(2, ['vip'], ['m2', 'm3'])]);
    const fix = await append(events, ROUTING_FIX_STREAM, [
      { type: ROUTING_REBUILD_REQUESTED, data: {} },
    ]);
    expect(await host.waitFor(fix.position, 2000)).toBe(true);
    const incremental = {
      channels: await read.collection(CHANNELS).find({}, { sort: { id: 1 } }),
      abilities: await abilities(),
    };
    expect(incremental.abilities).toHaveLength(3);
    await host.stop();
    await rebuildProjections(events, read, ALL_PROJECTIONS);
    expect({
      channels: await read.collection(CHANNELS).find({}, { sort: { id: 1 } }),
      abilities: await abilities(),
    }).toEqual(incremental);
  });

  it("a task refund takes its charge back out of the channel's used_quota, once", async () => {
    await append(events, 'channel-1', [created(1, ['default'], ['mj_imagine'])]);
    await append(events, 'usage-p-1', [{ type: 'RequestRelayed', data: receipt(1, 10) }]);
    const charge = {
      ...receipt(1, 300),
      model: 'mj_imagine',
      promptTokens: 0,
      completionTokens: 0,
      task: { platform: 'midjourney' as const, action: 'IMAGINE', upstreamTaskId: 'mj-1' },
    };
    await append(events, 'task-a', [{ type: 'RequestRelayed', data: charge }]);
    const refunded = await append(events, 'task-a', [
      {
        type: 'TaskRefunded',
        data: {
          taskId: 'a',
          platform: 'midjourney',
          upstreamTaskId: 'mj-1',
          userId: 1,
          tokenId: 0,
          channelId: 1,
          model: 'mj_imagine',
          quota: 300,
          refundedTime: 0,
        } satisfies TaskRefunded['data'],
      },
    ]);
    expect(await host.waitFor(refunded.position, 2000)).toBe(true);
    const once = await read.collection<ChannelDocument>(CHANNELS).get('1');
    expect(once?.used_quota).toBe(10);
    expect(channelsProjection().version).toBeGreaterThanOrEqual(2);
    const replay = [
      ...(await events.readStream('channel-1')),
      ...(await events.readStream('usage-p-1')),
      ...(await events.readStream('task-a')),
    ];
    for (const atomicTransactions of [true, false])
      await read.transaction((session) =>
        applyEvents(channelsProjection(), replay, session, { atomicTransactions }),
      );
    expect(await read.collection<ChannelDocument>(CHANNELS).get('1')).toEqual(once);
  });
});

describe('channels projection: keys quoted in status reasons', () => {
  const box = new SecretBox('projection-spec-secret');
  const openKey = (sealed: SealedSecret) => box.open(sealed);
  const OLD_KEY = 'sk-old-key-0123456789abcdef';
  const NEW_KEY = 'sk-new-key-fedcba9876543210';
  const disabled = (reason: string) => ({
    type: 'ChannelStatusChanged',
    data: { channelId: 1, from: 1, to: 3, reason, time: 5 },
  });
  const reasonOf = async (read: ReadStore, id: string) =>
    JSON.parse(String((await read.collection<ChannelDocument>(CHANNELS).get(id))?.other_info))
      .status_reason as string;
  let fixture: Awaited<ReturnType<typeof openProjectionHost>>;

  beforeEach(async () => {
    fixture = await openProjectionHost(allProjections(openKey));
  });
  afterEach(() => closeProjectionHost(fixture));

  it('masks every key the channel has had, in a reason recorded in clear; a rebuild too', async () => {
    const { events, read, host } = fixture;
    const channel = created(1, ['default'], ['m1']);
    await append(events, 'channel-1', [
      { ...channel, data: { ...channel.data, key: box.seal(OLD_KEY) } },
      disabled(`Incorrect API key provided: Bearer ${OLD_KEY}`),
      { type: 'ChannelUpdated', data: { channelId: 1, changes: {}, key: box.seal(NEW_KEY) } },
    ]);
    const last = await append(events, 'channel-1', [
      disabled(`401 ${NEW_KEY} (was ${Buffer.from(`x:${OLD_KEY}`).toString('base64')})`),
    ]);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    expect(await reasonOf(read, '1')).toMatch(/^401 \*\*\* \(was [A-Za-z0-9+/]*\*\*\*/);
    await host.stop();
    await rebuildProjections(events, read, allProjections(openKey));
    const reason = await reasonOf(read, '1');
    expect(reason).toMatch(/^401 \*\*\* /);
    expect(reason).not.toContain(NEW_KEY);
    // Both keys, sealed: never in clear in the read store.
    const keys = await read.collection<ChannelKeysDocument>(CHANNEL_KEYS).get('1');
    expect(keys?.sealed.map(openKey)).toEqual([OLD_KEY, NEW_KEY]);
    expect(JSON.stringify(await read.collection(CHANNEL_KEYS).find({}))).not.toContain('sk-');
  });

  it("an imported channel's reason is masked with its key; a deleted channel's keys go", async () => {
    const { events, read, host } = fixture;
    await append(events, 'channel-5', [
      {
        type: 'ChannelImported',
        data: {
          channelId: 5,
          config: { ...EMPTY_CHANNEL_CONFIG, type: 33, name: 'aws' },
          key: box.seal('AKIAIOSFODNN7EXAMPLE|wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY|us-east-1'),
          status: 3,
          statusReason: 'signature of wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY in us-east-1',
          statusTime: 9,
          createdTime: 100,
          testTime: 0,
          responseTimeMs: 0,
          balance: 0,
          balanceUpdatedTime: 0,
          usedQuota: 0,
          sourceType: 33,
          source: { project: 'new-api', table: 'channels', rowId: 5, importedAt: 'x' },
        },
      },
    ]);
    const gone = await append(events, 'channel-6', [created(6, ['default'], ['m1'])]);
    expect(await host.waitFor(gone.position, 2000)).toBe(true);
    expect(await reasonOf(read, '5')).toBe('signature of *** in us-east-1');
    const deleted = await append(events, 'channel-6', [
      { type: 'ChannelDeleted', data: { channelId: 6 } },
    ]);
    expect(await host.waitFor(deleted.position, 2000)).toBe(true);
    expect(await read.collection(CHANNEL_KEYS).get('6')).toBeNull();
    expect(await read.collection(CHANNEL_KEYS).get('5')).not.toBeNull();
  });

  it('copies reasons as they are without an opener (collections, tests)', async () => {
    const plain = await openProjectionHost(ALL_PROJECTIONS);
    await append(plain.events, 'channel-1', [
      created(1, ['default'], ['m1']),
      disabled('quota exceeded'),
    ]);
    const last = await append(plain.events, 'channel-1', [disabled('still exceeded')]);
    expect(await plain.host.waitFor(last.position, 2000)).toBe(true);
    expect(await reasonOf(plain.read, '1')).toBe('still exceeded');
    await closeProjectionHost(plain);
  });
});
