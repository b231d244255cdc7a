import { rebuildProjections, type ReadStore } from '@tollgate/read-store';
import {
  EMPTY_CHANNEL_CONFIG,
  usageStreamHourStart,
  usageSummaryEvents,
  usageSummaryStreamId,
  type RequestRelayed,
} from '@tollgate/domain';
import { appendEvents, systemMetadataAt } from '@tollgate/testing/append-events';
import {
  closeProjectionHost,
  openProjectionHost,
  type ProjectionFixture,
} from '@tollgate/testing/projection-host';
import { tokenCreated } from '@tollgate/testing/token-created';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { CHANNELS } from '../channels/channel.document';
import { BalanceAt } from '../history/balance-at';
import { ALL_PROJECTIONS } from '../projection-registry';
import { TOKENS } from '../tokens/token.document';
import { QUOTA_DATA, QUOTA_DATA_TOTAL } from '../usage-data/quota-data.document';
import { USERS } from '../users/user.document';

/**
 * The reader rule in every read model that adds receipts up: a summary of a usage stream whose
 * receipts were counted adds nothing; a summary alone (its stream removed) adds what they did.
 */
const meta = systemMetadataAt;
const SOURCE = 'usage-p1-2026011508';
const HOUR_START = usageStreamHourStart(SOURCE)!;
const s = (iso: string) => Date.parse(iso) / 1000;

const receipts: RequestRelayed['data'][] = [
  usageReceipt({ userId: 7, tokenId: 3, channelId: 1, quota: 100, model: 'gpt-4o' }),
  usageReceipt({ userId: 7, tokenId: 3, channelId: 2, quota: 40, model: 'gpt-4o' }),
  usageReceipt({ userId: 7, tokenId: 0, channelId: 1, quota: 15, model: 'gpt-4o-mini' }),
  usageReceipt({ userId: 8, tokenId: 4, channelId: 2, quota: 25, model: 'gpt-4o' }),
];
/** A later hour's receipt, never summarized: counted the same in every case. */
const later = usageReceipt({ userId: 7, tokenId: 3, channelId: 1, quota: 9, model: 'gpt-4o' });

async function seed(fx: ProjectionFixture, withReceipts: boolean, withSummary: boolean) {
  const early = meta('2026-01-15T07:00:00.000Z');
  for (const userId of [7, 8]) {
    await appendEvents(
      fx.events,
      `user-${userId}`,
      [{ type: 'UserRegistered', data: registered(userId) }],
      early,
    );
    await appendEvents(
      fx.events,
      `billing-${userId}`,
      [{ type: 'QuotaGranted', data: { userId, amount: 1000, reason: 'topup' } }],
      early,
    );
  }
  for (const [tokenId, userId] of [
    [3, 7],
    [4, 8],
  ] as const)
    await appendEvents(
      fx.events,
      `token-${tokenId}`,
      [{ type: 'TokenCreated', data: tokenCreated({ tokenId, userId, remainQuota: 500 }) }],
      early,
    );
  for (const channelId of [1, 2])
    await appendEvents(fx.events, `channel-${channelId}`, [channelCreated(channelId)], early);
  if (withReceipts)
    for (const [i, data] of receipts.entries())
      await appendEvents(
        fx.events,
        SOURCE,
        [{ type: 'RequestRelayed', data }],
        meta(`2026-01-15T08:1${i}:00.000Z`),
      );
  let last = await appendEvents(
    fx.events,
    'usage-p1-2026011509',
    [{ type: 'RequestRelayed', data: later }],
    meta('2026-01-15T09:05:00.000Z'),
  );
  if (withSummary)
    last = await appendEvents(
      fx.events,
      usageSummaryStreamId(SOURCE),
      usageSummaryEvents(SOURCE, HOUR_START, receipts),
      meta('2026-01-25T03:00:00.000Z'),
    );
  expect(await fx.host.waitFor(last.position, 5000)).toBe(true);
}

function registered(userId: number) {
  return {
    userId,
    username: `u${userId}`,
    displayName: `u${userId}`,
    passwordHash: '$argon2id$x',
    role: 1,
    group: 'default',
    email: '',
    inviterId: 0,
    affCode: `code${userId}`,
    source: 'register',
  };
}

function channelCreated(channelId: number) {
  return {
    type: 'ChannelCreated',
    data: {
      channelId,
      config: { ...EMPTY_CHANNEL_CONFIG, name: `c${channelId}`, groups: ['default'] },
      key: { cipher: 'sealed', hash: `hash${channelId}` },
      status: 1,
      createdTime: 100,
    },
  };
}

/** What each read model counted, without the fields that say when (receipt times, positions). */
async function counted(read: ReadStore) {
  const all = (name: string, fields: string[]) =>
    read
      .collection<{ _id: string } & Record<string, unknown>>(name)
      .find({}, { sort: { _id: 1 } })
      .then((docs) => docs.map((d) => [d['_id'], ...fields.map((f) => d[f])]));
  const at = new BalanceAt(read);
  return {
    users: await all(USERS, ['quota', 'used_quota', 'request_count']),
    tokens: await all(TOKENS, ['remain_quota', 'used_quota']),
    channels: await all(CHANNELS, ['used_quota']),
    quotaData: await all(QUOTA_DATA, ['count', 'quota', 'token_used']),
    quotaDataTotal: await all(QUOTA_DATA_TOTAL, ['count', 'quota', 'token_used']),
    balanceAt: [
      await at.user(7, s('2026-01-16T00:00:00.000Z')),
      await at.user(8, s('2026-01-16T00:00:00.000Z')),
      await at.token(3, s('2026-01-16T00:00:00.000Z')),
    ],
  };
}

describe('usage summaries in the read models (the reader rule)', () => {
  const fixtures: ProjectionFixture[] = [];
  async function run(withReceipts: boolean, withSummary: boolean) {
    const fx = await openProjectionHost(ALL_PROJECTIONS);
    fixtures.push(fx);
    await seed(fx, withReceipts, withSummary);
    return fx;
  }
  afterEach(async () => {
    for (const fx of fixtures.splice(0)) await closeProjectionHost(fx);
  });

  it('counts what the receipts counted: receipts then summary once, a summary alone the same', async () => {
    const receiptsOnly = await counted((await run(true, false)).read);
    // The receipts' own sums, as each read model should show them.
    const charged = (userId: number) =>
      [...receipts, later].filter((r) => r.userId === userId).reduce((t, r) => t + r.quota, 0);
    const requests = (userId: number) =>
      [...receipts, later].filter((r) => r.userId === userId).length;
    expect(receiptsOnly.users).toEqual([
      ['7', 1000 - charged(7), charged(7), requests(7)],
      ['8', 1000 - charged(8), charged(8), requests(8)],
    ]);
    expect(receiptsOnly.balanceAt[0]).toMatchObject({ used_quota: charged(7) });

    const both = await run(true, true);
    expect(await counted(both.read)).toEqual(receiptsOnly);
    const summaryOnly = await run(false, true);
    expect(await counted(summaryOnly.read)).toEqual(receiptsOnly);

    // A rebuild gives the same: the markers are rebuilt with the rest.
    for (const fx of [both, summaryOnly]) {
      await fx.host.stop();
      await rebuildProjections(fx.events, fx.read, ALL_PROJECTIONS);
      expect(await counted(fx.read)).toEqual(receiptsOnly);
      await fx.host.start();
    }
  });

  it('inside a summarized hour a balance at an instant has hour resolution', async () => {
    const fx = await run(false, true);
    const midHour = s('2026-01-15T08:05:00.000Z');
    const hourCharge = receipts.filter((r) => r.userId === 7).reduce((t, r) => t + r.quota, 0);
    expect(await new BalanceAt(fx.read).user(7, midHour)).toMatchObject({
      used_quota: hourCharge,
      quota: 1000 - hourCharge,
    });
    expect(await new BalanceAt(fx.read).user(7, HOUR_START / 1000 - 1)).toMatchObject({
      used_quota: 0,
    });
  });
});
