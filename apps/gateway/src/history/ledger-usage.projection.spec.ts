import type { EventStore } from '@tollgate/event-store';
import { ProjectionHost, rebuildProjections, type ReadStore } from '@tollgate/read-store';
import type { TaskRefunded, TokenCreated } from '@tollgate/domain';
import { ALL_PROJECTIONS } from '../projection-registry';
import { BalanceAt } from './balance-at';
import { LEDGER_USAGE, usageBucketId, type LedgerUsageDocument } from './ledger-usage.document';
import { ledgerUsageProjection } from './ledger-usage.projection';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { closeProjectionHost, openProjectionHost } from '@tollgate/testing/projection-host';
import { appendEvents } from '@tollgate/testing/append-events';

const metaAt = (iso: string) => ({
  schemaVersion: 1,
  actor: { kind: 'system', id: null, role: null },
  occurredAt: iso,
});
const s = (iso: string) => Date.parse(iso) / 1000;
const HOUR_8 = s('2026-01-15T08:00:00.000Z');
const HOUR_9 = HOUR_8 + 3600;

const tokenCreated: TokenCreated = {
  type: 'TokenCreated',
  data: {
    tokenId: 3,
    userId: 7,
    sealedKey: { cipher: 'c', hash: 'h' },
    keyHash: 'sha',
    createdTime: 0,
    name: 'main',
    expiredTime: -1,
    remainQuota: 1000,
    unlimitedQuota: false,
    modelLimitsEnabled: false,
    modelLimits: [],
    allowIps: [],
    group: '',
    rateLimits: { rpm: 0, tpm: 0, concurrency: 0 },
  },
};
const refund: TaskRefunded = {
  type: 'TaskRefunded',
  data: {
    taskId: 'a',
    platform: 'midjourney',
    upstreamTaskId: 'mj-a',
    userId: 7,
    tokenId: 3,
    channelId: 1,
    model: 'mj_imagine',
    quota: 300,
    refundedTime: s('2026-01-15T09:05:00.000Z'),
  },
};

describe('ledger_usage: task refunds are negative consumption at their own time', () => {
  let events: EventStore;
  let read: ReadStore;
  let host: ProjectionHost;

  beforeEach(async () => {
    ({ events, read, host } = await openProjectionHost(ALL_PROJECTIONS));
  });
  afterEach(() => closeProjectionHost({ events, read, host }));

  async function seed() {
    const early = metaAt('2026-01-15T07:00:00.000Z');
    await appendEvents(
      events,
      'billing-7',
      [{ type: 'QuotaGranted', data: { userId: 7, amount: 1000, reason: 'topup' } }],
      early,
    );
    await appendEvents(events, 'token-3', [tokenCreated], early);
    await appendEvents(
      events,
      'task-a',
      [
        {
          type: 'RequestRelayed',
          data: usageReceipt({
            requestId: 'a',
            userId: 7,
            tokenId: 3,
            model: 'mj_imagine',
            promptTokens: 0,
            completionTokens: 0,
            quota: 300,
            task: { platform: 'midjourney', action: 'IMAGINE', upstreamTaskId: 'mj-a' },
          }),
        },
      ],
      metaAt('2026-01-15T08:10:00.000Z'),
    );
    const last = await appendEvents(events, 'task-a', [refund], metaAt('2026-01-15T09:05:00.000Z'));
    expect(await host.waitFor(last.position, 2000)).toBe(true);
  }

  it('the refund hour and second hold −quota and −1 for the user and the token', async () => {
    await seed();
    const usage = read.collection<LedgerUsageDocument>(LEDGER_USAGE);
    expect(await usage.get(usageBucketId('u', 7, 'h', HOUR_8))).toMatchObject({
      q: 300,
      n: 1,
    });
    expect(await usage.get(usageBucketId('u', 7, 'h', HOUR_9))).toMatchObject({
      q: -300,
      n: -1,
    });
    expect(await usage.get(usageBucketId('t', 3, 's', refund.data.refundedTime))).toMatchObject({
      q: -300,
      n: -1,
    });
    expect(ledgerUsageProjection.version).toBeGreaterThanOrEqual(2);
  });

  it('balances at an instant: charged between charge and refund, whole again after it', async () => {
    await seed();
    const at = new BalanceAt(read);
    expect(await at.user(7, s('2026-01-15T08:30:00.000Z'))).toEqual({
      quota: 700,
      used_quota: 300,
      request_count: 1,
      credited: 1000,
    });
    expect(await at.user(7, refund.data.refundedTime)).toEqual({
      quota: 1000,
      used_quota: 0,
      request_count: 0,
      credited: 1000,
    });
    expect(await at.token(3, s('2026-01-15T08:30:00.000Z'))).toMatchObject({
      remain_quota: 700,
      used_quota: 300,
    });
    expect(await at.token(3, s('2026-01-15T10:00:00.000Z'))).toMatchObject({
      remain_quota: 1000,
      used_quota: 0,
    });
  });

  it('a rebuild equals incremental application', async () => {
    await seed();
    const rows = () => read.collection(LEDGER_USAGE).find({}, { sort: { _id: 1 } });
    const incremental = await rows();
    await host.stop();
    await rebuildProjections(events, read, ALL_PROJECTIONS);
    expect(await rows()).toEqual(incremental);
    host = new ProjectionHost(events, read, ALL_PROJECTIONS);
    await host.start();
  });
});
