import type { Projection } from '@tollgate/read-store';
import {
  TASK_REFUND_EVENT_TYPES,
  type RequestRelayed,
  type TaskRefunded,
  type TokenCreated,
  type TokenUpdated,
} from '@tollgate/domain';
import { eventTimeMs } from './event-facts';
import {
  LEDGER_TOKEN_CAPS,
  LEDGER_USAGE,
  type LedgerTokenCapDocument,
  type LedgerUsageDocument,
} from './ledger-usage.document';

const HOUR = 3600;

export const usageBucketId = (subject: 'u' | 't', id: number, grain: 'h' | 's', t: number) =>
  `${subject}:${id}:${grain}:${t}`;

/**
 * ledger_usage + ledger_token_caps: what the balance-at routes sum (docs/history.md). A task refund
 * is negative consumption (quota and count) at its own time, as the users and tokens read models
 * and the balance book count it.
 */
export const ledgerUsageProjection: Projection = {
  name: 'ledger-usage',
  // 2: TaskRefunded (negative consumption).
  version: 2,
  collections: [
    { name: LEDGER_USAGE, indexes: [{ fields: { subject: 1, subject_id: 1, grain: 1, t: 1 } }] },
    { name: LEDGER_TOKEN_CAPS, indexes: [{ fields: { token_id: 1, revision: -1 } }] },
  ],
  eventTypes: ['TokenCreated', 'TokenUpdated', 'RequestRelayed', ...TASK_REFUND_EVENT_TYPES],
  async apply(recorded, session) {
    // Receipts before this event are already written (the batch's buffer is flushed first).
    const event = { type: recorded.type, data: recorded.data } as TokenCreated | TokenUpdated;
    const { tokenId, remainQuota, unlimitedQuota } = event.data;
    const [used] = await session
      .collection<LedgerUsageDocument>(LEDGER_USAGE)
      .sum({ subject: 't', subject_id: tokenId, grain: 'h' }, null, ['quota']);
    await session.collection<LedgerTokenCapDocument>(LEDGER_TOKEN_CAPS).put({
      _id: `${tokenId}:${recorded.revision}`,
      token_id: tokenId,
      revision: recorded.revision,
      at: Math.floor(eventTimeMs(recorded) / 1000),
      cap: remainQuota,
      unlimited: unlimitedQuota,
      used_before: used?.sums['quota'] ?? 0,
    });
  },
  batched: {
    eventTypes: ['RequestRelayed', ...TASK_REFUND_EVENT_TYPES],
    apply(recorded, writes) {
      const d = (recorded as unknown as RequestRelayed | TaskRefunded).data;
      // A refund gives back its charge: one request less, its quota less.
      const sign = recorded.type === 'TaskRefunded' ? -1 : 1;
      const second = Math.floor(eventTimeMs(recorded) / 1000);
      const hour = Math.floor(second / HOUR) * HOUR;
      const add = (subject: 'u' | 't', id: number, grain: 'h' | 's', t: number) =>
        writes.update(
          LEDGER_USAGE,
          usageBucketId(subject, id, grain, t),
          {
            $setOnInsert: { subject, subject_id: id, grain, t },
            $inc: { quota: sign * d.quota, count: sign },
          },
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
