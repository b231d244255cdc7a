import type { EventStore } from '@tollgate/event-store';
import {
  ProjectionHost,
  applyEvents,
  rebuildProjections,
  type ReadStore,
} from '@tollgate/read-store';
import type { RequestRelayed, TokenCreated } from '@tollgate/domain';
import { LOG_TOTALS, LOGS } from './logs/log.document';
import { logStore } from './logs/log-store';
import { logsProjection } from './logs/logs.projection';
import { REDEMPTIONS } from './redemptions/redemption.document';
import { TOKENS, type TokenDocument } from './tokens/token.document';
import { tokenListProjection } from './tokens/token-list.projection';
import { ALL_PROJECTIONS } from './projection-registry';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';

const meta = (actorId: number | null = null) => ({
  schemaVersion: 1,
  actor: { kind: actorId === null ? 'system' : 'user', id: actorId, role: 100 },
  occurredAt: '2026-01-15T08:00:00.000Z',
});
const at = Date.parse('2026-01-15T08:00:00.000Z') / 1000;

async function append(
  store: EventStore,
  stream: string,
  events: Array<{ type: string; data: unknown }>,
  actorId: number | null = null,
) {
  return appendEvents(store, stream, events, meta(actorId));
}

const tokenCreated: TokenCreated = {
  type: 'TokenCreated',
  data: {
    tokenId: 3,
    userId: 7,
    sealedKey: { cipher: 'sealed-cipher', hash: 'h' },
    keyHash: 'sha',
    createdTime: at,
    name: 'main',
    expiredTime: -1,
    remainQuota: 1000,
    unlimitedQuota: false,
    modelLimitsEnabled: true,
    modelLimits: ['a', 'b'],
    allowIps: ['10.0.0.1', '::1'],
    group: '',
    rateLimits: { rpm: 5, tpm: 0, concurrency: 1 },
  },
};
const relayed = (quota: number): RequestRelayed => ({
  type: 'RequestRelayed',
  data: usageReceipt({
    userId: 7,
    tokenId: 3,
    tokenName: 'main',
    model: 'm',
    channelId: 2,
    quota,
    useTimeMs: 1500,
    ip: '198.51.100.1',
  }),
});

describe('tokens, redemptions and logs projections', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  async function seed() {
    await append(events, 'user-7', [
      {
        type: 'UserRegistered',
        data: {
          userId: 7,
          username: 'alice',
          displayName: 'alice',
          passwordHash: 'x',
          role: 1,
          group: 'default',
          email: '',
          inviterId: 0,
          affCode: 'c7',
          source: 'register',
        },
      },
    ]);
    await append(events, 'billing-7', [
      { type: 'QuotaGranted', data: { userId: 7, amount: 500, reason: 'new_user' } },
      {
        type: 'QuotaGranted',
        data: { userId: 7, amount: 900, reason: 'redemption', reference: 'redemption-4' },
      },
    ]);
    await append(
      events,
      'billing-7',
      [{ type: 'QuotaAdjusted', data: { userId: 7, from: 1400, to: 1000, delta: -400, note: '' } }],
      1,
    );
    await append(events, 'token-3', [tokenCreated]);
    await append(events, 'usage-p-2026011508', [relayed(30), relayed(20)]);
    await append(events, 'redemption-4', [
      {
        type: 'RedemptionCreated',
        data: {
          redemptionId: 4,
          createdBy: 1,
          name: 'gift',
          quota: 900,
          sealedKey: { cipher: 'code-cipher', hash: 'h' },
          keyHash: 'csha',
          createdTime: at,
        },
      },
      {
        type: 'RedemptionRedeemed',
        data: { redemptionId: 4, userId: 7, quota: 900, redeemedTime: at + 5 },
      },
    ]);
    const last = await append(events, 'token-3', [
      {
        type: 'TokenStatusChanged',
        data: { tokenId: 3, userId: 7, from: 1, to: 2, reason: 'user' },
      },
    ]);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
  }

  it('given token, code, credit and usage events, the documents show them', async () => {
    await seed();
    const token = await read.collection<TokenDocument>(TOKENS).get('3');
    expect(token).toMatchObject({
      id: 3,
      user_id: 7,
      status: 2,
      key_cipher: 'sealed-cipher',
      remain_quota: 950,
      used_quota: 50,
      model_limits: 'a,b',
      allow_ips: '10.0.0.1\n::1',
      rate_limit_rpm: 5,
      rate_limit_concurrency: 1,
    });
    expect(token!.accessed_time).toBeGreaterThan(0);
    expect(await read.collection(REDEMPTIONS).get('4')).toMatchObject({
      status: 3,
      used_user_id: 7,
      redeemed_time: at + 5,
      key_cipher: 'code-cipher',
    });
    const logs = await logStore(read).find({}, { sort: { id: 1 } });
    expect(logs.map((l) => [l.type, l.quota, l.username])).toEqual([
      [4, 500, 'alice'],
      [1, 900, 'alice'],
      [3, -400, 'alice'],
      [2, 30, 'alice'],
      [2, 20, 'alice'],
    ]);
    expect(logs[2]).toMatchObject({ admin_id: 1, created_at: at });
    expect(logs[3]).toMatchObject({
      channel: 2,
      use_time: 2,
      ip: '198.51.100.1',
      token_name: 'main',
    });
  });

  it('a rename in the middle of a batch of receipts names the rows before and after it correctly', async () => {
    await seed();
    // One append: the runner applies these in one batch (one transaction, one username memo).
    const last = await append(events, 'usage-p-2026011509', [
      relayed(1),
      { type: 'UserRenamed', data: { userId: 7, from: 'alice', to: 'alicia' } },
      relayed(2),
      relayed(3),
    ]);
    expect(await host.waitFor(last.position, 2000)).toBe(true);
    const rows = await logStore(read).find({ type: 2, quota: { $lt: 10 } }, { sort: { id: 1 } });
    expect(rows.map((l) => [l.quota, l.username])).toEqual([
      [1, 'alice'],
      [2, 'alicia'],
      [3, 'alicia'],
    ]);
  });

  it('applying the same events twice changes nothing', async () => {
    await seed();
    const once = {
      token: await read.collection(TOKENS).get('3'),
      logs: await logStore(read).find({}, { sort: { id: 1 } }),
      totals: await read.collection(LOG_TOTALS).find({}, { sort: { _id: 1 } }),
    };
    const replay = [
      ...(await events.readStream('token-3')),
      ...(await events.readStream('usage-p-2026011508')),
      ...(await events.readStream('billing-7')),
    ];
    // Through the runner's own path, merged (atomic store) and one by one (store without transactions).
    for (const atomicTransactions of [true, false])
      await read.transaction(async (session) => {
        for (const projection of [tokenListProjection, logsProjection]) {
          const mine = replay.filter((event) => projection.eventTypes.includes(event.type));
          await applyEvents(projection, mine, session, { atomicTransactions });
        }
      });
    expect({
      token: await read.collection(TOKENS).get('3'),
      logs: await logStore(read).find({}, { sort: { id: 1 } }),
      totals: await read.collection(LOG_TOTALS).find({}, { sort: { _id: 1 } }),
    }).toEqual(once);
  });

  it('a rebuild equals incremental application; a clear drops the rows before its time', async () => {
    await seed();
    const snapshot = async () => ({
      tokens: await read.collection(TOKENS).find({}, { sort: { id: 1 } }),
      codes: await read.collection(REDEMPTIONS).find({}, { sort: { id: 1 } }),
      logs: await logStore(read).find({}, { sort: { id: 1 } }),
      totals: await read.collection(LOG_TOTALS).find({}, { sort: { _id: 1 } }),
    });
    const incremental = await snapshot();
    // The consumption rows' running totals: 30 + 20, for everyone and for user 7.
    expect(incremental.totals.map((t) => [t._id, t['quota']])).toEqual([
      ['all', 50],
      ['user:7', 50],
    ]);
    await host.stop();
    await rebuildProjections(events, read, ALL_PROJECTIONS);
    expect(await snapshot()).toEqual(incremental);

    host = new ProjectionHost(events, read, ALL_PROJECTIONS);
    await host.start();
    const cleared = await append(events, 'logs', [
      { type: 'LogsCleared', data: { before: at + 1, count: 5 } },
    ]);
    expect(await host.waitFor(cleared.position, 2000)).toBe(true);
    expect(await read.collection(LOGS).count({})).toBe(0);
    // The cleared consumption leaves the totals with the rows.
    expect(
      (await read.collection(LOG_TOTALS).find({}, { sort: { _id: 1 } })).map((t) => [
        t._id,
        t['quota'],
      ]),
    ).toEqual([
      ['all', 0],
      ['user:7', 0],
    ]);
    // Later receipts count from there.
    const later = await append(events, 'usage-p-2026011509', [relayed(7)]);
    expect(await host.waitFor(later.position, 2000)).toBe(true);
    expect((await read.collection(LOG_TOTALS).get('user:7'))?.['quota']).toBe(7);
  });
});
