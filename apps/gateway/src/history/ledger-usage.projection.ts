import { eventTimeMs } from '@tollgate/event-store';
import type { Projection, ReadStoreSession } from '@tollgate/read-store';
import {
  TASK_REFUND_EVENT_TYPES,
  type BalanceImported,
  type RequestRelayed,
  type TaskRefunded,
  type TokenCreated,
  type TokenImported,
  type TokenUpdated,
  type UsageSummarized,
} from '@tollgate/domain';
import { SummaryMarkers } from '../usage/summary-markers';
import { sumRows, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import {
  LAST_SECOND,
  LEDGER_TOKEN_CAPS,
  LEDGER_USAGE,
  usageBucketId,
  usageRange,
  type LedgerTokenCapDocument,
  type LedgerUsageDocument,
  type UsageGrain,
  type UsageSubject,
} from './ledger-usage.document';

const HOUR = 3600;

/** The usage streams whose receipts ledger_usage counted (the reader rule). */
const summaryMarkers = new SummaryMarkers('ledger_usage_sources');

/** Adds consumption to a subject's hour and second buckets (the unbatched path). */
async function addUsage(
  session: ReadStoreSession,
  subject: UsageSubject,
  id: number,
  second: number,
  quota: number,
  count: number,
): Promise<void> {
  const usage = session.collection<LedgerUsageDocument>(LEDGER_USAGE);
  for (const [grain, t] of [
    ['h', Math.floor(second / HOUR) * HOUR],
    ['s', second],
  ] as const) {
    const _id = usageBucketId(subject, id, grain, t);
    const doc = await usage.get(_id);
    await usage.put({ _id, q: (doc?.q ?? 0) + quota, n: (doc?.n ?? 0) + count });
  }
}

/**
 * ledger_usage + ledger_token_caps: what the balance-at routes sum (docs/history.md). A task refund
 * is negative consumption (quota and count) at its own time, as the users and tokens read models
 * and the balance book count it. An import's used quota (and request count) is consumption at the
 * import's instant, against the `quota + used` its BalanceImported credits: from then on the
 * balance at an instant is the source's; before it the routes answer that history begins there.
 */
export const ledgerUsageProjection: Projection = {
  name: 'ledger-usage',
  // 2: TaskRefunded (negative consumption).
  // 3: BalanceImported / TokenImported (the source's used quota, at the import).
  // 4: the bucket's subject, grain and time in its `_id` only; the sums as `q` and `n`.
  // 5: UsageSummarized (retention) at its hour's first second, when none of its receipts were.
  version: 5,
  collections: [
    { name: LEDGER_USAGE },
    { name: LEDGER_TOKEN_CAPS, indexes: [{ fields: { token_id: 1, revision: -1 } }] },
    summaryMarkers.spec,
  ],
  eventTypes: [
    'TokenCreated',
    'TokenUpdated',
    'TokenImported',
    'BalanceImported',
    'RequestRelayed',
    ...TASK_REFUND_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
  ],
  async apply(recorded, session) {
    if (recorded.type === 'UsageSummarized')
      return applySummary((recorded as unknown as UsageSummarized).data, session);
    // Receipts before this event are already written (the batch's buffer is flushed first).
    const event = { type: recorded.type, data: recorded.data } as
      TokenCreated | TokenUpdated | TokenImported | BalanceImported;
    const second = Math.floor(eventTimeMs(recorded) / 1000);
    if (event.type === 'BalanceImported') {
      const { userId, usedQuota, requestCount } = event.data;
      await addUsage(session, 'u', userId, second, usedQuota, requestCount);
      return;
    }
    if (event.type === 'TokenImported')
      await addUsage(session, 't', event.data.tokenId, second, event.data.usedQuota, 0);
    const { tokenId, remainQuota, unlimitedQuota } = event.data;
    const [used] = await session
      .collection<LedgerUsageDocument>(LEDGER_USAGE)
      .sum(usageRange('t', tokenId, 'h', 0, LAST_SECOND), null, ['q']);
    await session.collection<LedgerTokenCapDocument>(LEDGER_TOKEN_CAPS).put({
      _id: `${tokenId}:${recorded.revision}`,
      token_id: tokenId,
      revision: recorded.revision,
      at: Math.floor(eventTimeMs(recorded) / 1000),
      cap: remainQuota,
      unlimited: unlimitedQuota,
      used_before: used?.sums['q'] ?? 0,
    });
  },
  batched: {
    eventTypes: ['RequestRelayed', ...TASK_REFUND_EVENT_TYPES],
    apply(recorded, writes, session) {
      const d = (recorded as unknown as RequestRelayed | TaskRefunded).data;
      if (recorded.type === 'RequestRelayed') summaryMarkers.receipt(recorded, writes, session);
      // A refund gives back its charge: one request less, its quota less.
      const sign = recorded.type === 'TaskRefunded' ? -1 : 1;
      const second = Math.floor(eventTimeMs(recorded) / 1000);
      const hour = Math.floor(second / HOUR) * HOUR;
      const add = (subject: UsageSubject, id: number, grain: UsageGrain, t: number) =>
        writes.update(
          LEDGER_USAGE,
          usageBucketId(subject, id, grain, t),
          { $inc: { q: sign * d.quota, n: sign } },
          { upsert: true },
        );
      add('u', d.userId, 'h', hour);
      add('u', d.userId, 's', second);
      if (d.tokenId > 0) {
        add('t', d.tokenId, 'h', hour);
        add('t', d.tokenId, 's', second);
      }
    },
  },
};

/**
 * A summary's consumption, all of it at its hour's first second (hour resolution inside an
 * archived hour: docs/history.md), when none of its source's receipts were counted here.
 */
async function applySummary(summary: UsageSummarized['data'], session: ReadStoreSession) {
  if (!(await summaryMarkers.counts(summary, session))) return;
  const second = Math.floor(summary.hourStart / 1000);
  for (const [userId, sum] of sumRows(summary.rows, (r) => r.userId))
    await addUsage(session, 'u', userId, second, sum.quota, sum.requests);
  for (const [tokenId, sum] of sumRows(summary.rows, (r) => (r.tokenId > 0 ? r.tokenId : null)))
    await addUsage(session, 't', tokenId, second, sum.quota, sum.requests);
}
