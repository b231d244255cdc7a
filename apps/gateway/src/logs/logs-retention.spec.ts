import { rebuildProjections } from '@tollgate/read-store';
import { LogType } from '@tollgate/contracts';
import { ARCHIVE_CHAIN_STREAM, usageStreamHourStart, type UsageArchived } from '@tollgate/domain';
import { appendEvents, systemMetadataAt } from '@tollgate/testing/append-events';
import {
  closeProjectionHost,
  openProjectionHost,
  type ProjectionFixture,
} from '@tollgate/testing/projection-host';
import { usageReceipt } from '@tollgate/testing/usage-receipt';
import { ALL_PROJECTIONS } from '../projection-registry';
import { ALL_TOTALS, LOG_TOTALS, userTotalsId, type LogTotalsDocument } from './log.document';
import { ListLogsHandler, ListLogsQuery } from './queries/log-queries.handler';

const meta = systemMetadataAt;
const SOURCE = 'usage-p1-2026011508';
const HOUR_START = usageStreamHourStart(SOURCE)!;
const archived: UsageArchived = {
  type: 'UsageArchived',
  data: {
    source: SOURCE,
    hourStart: HOUR_START,
    segment: `${SOURCE}.jsonl.gz`,
    sha256: 'a'.repeat(64),
    previousSha256: null,
    bytes: 100,
    receipts: 2,
    quota: 150,
  },
};
const registered = {
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
};
const relayed = (quota: number, fields = {}) => ({
  type: 'RequestRelayed',
  data: usageReceipt({ userId: 7, tokenId: 0, quota, ...fields }),
});
const failed = {
  type: 'RequestFailed',
  data: {
    ...usageReceipt({ userId: 7, tokenId: 0, requestId: 'f' }),
    status: 502,
    message: 'bad gateway',
    retries: 0,
    quota: 0,
  },
};
const taskCharge = relayed(300, {
  requestId: 'a',
  task: { platform: 'midjourney', action: 'IMAGINE', upstreamTaskId: 'up-a' },
});

describe('logs projection: archived hours (retention)', () => {
  let fx: ProjectionFixture;
  beforeEach(async () => {
    fx = await openProjectionHost(ALL_PROJECTIONS);
  });
  afterEach(() => closeProjectionHost(fx));

  const list = () => new ListLogsHandler(fx.read).execute(new ListLogsQuery({ kind: 'all' }, {}));
  const totals = async () => {
    const docs = fx.read.collection<LogTotalsDocument>(LOG_TOTALS);
    return [(await docs.get(ALL_TOTALS))?.quota, (await docs.get(userTotalsId(7)))?.quota];
  };

  async function seed() {
    const early = meta('2026-01-15T07:00:00.000Z');
    await appendEvents(fx.events, 'user-7', [registered], early);
    const topUp = { type: 'QuotaGranted', data: { userId: 7, amount: 1000, reason: 'topup' } };
    await appendEvents(fx.events, 'billing-7', [topUp], meta('2026-01-15T08:05:00.000Z'));
    await appendEvents(
      fx.events,
      SOURCE,
      [relayed(100), relayed(50), failed],
      meta('2026-01-15T08:10:00Z'),
    );
    await appendEvents(fx.events, 'task-a', [taskCharge], meta('2026-01-15T08:20:00.000Z'));
    const last = await appendEvents(
      fx.events,
      'usage-p1-2026011509',
      [relayed(7)],
      meta('2026-01-15T09:10:00.000Z'),
    );
    await fx.host.waitFor(last.position, 5000);
  }

  it("drops the archived hour's call and error rows (not a task's charge, a top-up or a later hour's), totals too", async () => {
    await seed();
    const before = await list();
    expect(before).not.toHaveProperty('retained_from');
    expect(before.total).toBe(6);
    expect(before.items.some((row) => row.type === LogType.Error)).toBe(true);
    expect(await totals()).toEqual([457, 457]);

    const last = await appendEvents(
      fx.events,
      ARCHIVE_CHAIN_STREAM,
      [archived],
      meta('2026-01-25T00:00:00Z'),
    );
    await fx.host.waitFor(last.position, 5000);
    const after = await list();
    expect(after.retained_from).toBe(HOUR_START / 1000 + 3600);
    expect(after.items.map((row) => [row.type, row.quota])).toEqual([
      [LogType.Consume, 7],
      [LogType.Consume, 300],
      [LogType.TopUp, 1000],
    ]);
    expect(await totals()).toEqual([307, 307]);

    // A rebuild gives the same rows, totals and start.
    await fx.host.stop();
    await rebuildProjections(fx.events, fx.read, ALL_PROJECTIONS);
    expect(await list()).toEqual(after);
    expect(await totals()).toEqual([307, 307]);
    await fx.host.start();
  });
});
