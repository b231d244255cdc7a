import { TokenStatus } from '@tollgate/contracts';
import type { Projection, Update } from '@tollgate/read-store';
import {
  TASK_REFUND_EVENT_TYPES,
  TOKEN_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type TaskRefunded,
  type TokenEvent,
  type TokenSettings,
  type UsageEvent,
  type UsageSummarized,
} from '@tollgate/domain';
import { SummaryMarkers } from '../usage/summary-markers';
import { sumRows, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import { TOKENS, type TokenDocument } from './token.document';

/** The usage streams whose receipts the tokens read model counted (the reader rule). */
const summaryMarkers = new SummaryMarkers('tokens_usage_sources');

function settingsFields(s: TokenSettings) {
  return {
    name: s.name,
    expired_time: s.expiredTime,
    remain_quota: s.remainQuota,
    unlimited_quota: s.unlimitedQuota,
    model_limits_enabled: s.modelLimitsEnabled,
    model_limits: s.modelLimits.join(','),
    allow_ips: s.allowIps.join('\n'),
    group: s.group,
    rate_limit_rpm: s.rateLimits.rpm,
    rate_limit_tpm: s.rateLimits.tpm,
    rate_limit_concurrency: s.rateLimits.concurrency,
    // Always written, so an update that removes the budget clears it (older events: none).
    period_quota: s.period ? (s.periodQuota ?? 0) : 0,
    period: s.period ?? ('' as const),
    model_fallback: s.modelFallback !== false,
  };
}

/** tokens: one document per live token (deleted tokens are removed), counters from the receipts. */
export const tokenListProjection: Projection = {
  name: 'tokens',
  // 2: TaskRefunded gives a failed task's charge back (remain_quota, used_quota).
  // 3: TokenImported (one-api / new-api import).
  // 4: UsageSummarized (retention) counted when none of its source's receipts were.
  version: 4,
  collections: [
    {
      name: TOKENS,
      indexes: [
        { fields: { user_id: 1, id: -1 } },
        { fields: { key_hash: 1 } },
        { fields: { id: 1 } },
      ],
    },
    summaryMarkers.spec,
  ],
  eventTypes: [
    ...TOKEN_EVENT_TYPES,
    ...USAGE_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
  ],
  async apply(recorded, session) {
    const tokens = session.collection<TokenDocument>(TOKENS);
    const event = { type: recorded.type, data: recorded.data } as TokenEvent;
    const position = Number(recorded.position.commit);
    // At most once per document even without transactions (MongoDB without a replica set).
    const update = (id: number, change: Update) =>
      tokens.updateMany(
        { _id: String(id), source_position: { $lt: position } },
        { ...change, $set: { ...change.$set, source_position: position } },
      );
    if (recorded.type === 'UsageSummarized') {
      const summary = (recorded as unknown as UsageSummarized).data;
      if (!(await summaryMarkers.counts(summary, session))) return;
      // The hour's start stands in for the removed receipts' times.
      const accessed = Math.floor(summary.hourStart / 1000);
      for (const [tokenId, sum] of sumRows(summary.rows, (r) => (r.tokenId > 0 ? r.tokenId : null)))
        await update(tokenId, {
          $inc: { remain_quota: -sum.quota, used_quota: sum.quota },
          $max: { accessed_time: accessed },
        });
      return;
    }
    switch (event.type) {
      case 'TokenCreated': {
        const d = event.data;
        // Insert once: a replayed creation must not reset the counters.
        const { _id, ...doc }: TokenDocument = {
          _id: String(d.tokenId),
          id: d.tokenId,
          user_id: d.userId,
          key_cipher: d.sealedKey.cipher,
          key_hash: d.keyHash,
          status: TokenStatus.Enabled,
          created_time: d.createdTime,
          accessed_time: 0,
          used_quota: 0,
          source_position: position,
          ...settingsFields(d),
        };
        await tokens.update(_id, { $setOnInsert: doc }, { upsert: true });
        return;
      }
      case 'TokenImported': {
        const d = event.data;
        // Deleted at the source: kept on its stream (its history), not listed.
        if (d.deleted) return;
        const { _id, ...doc }: TokenDocument = {
          _id: String(d.tokenId),
          id: d.tokenId,
          user_id: d.userId,
          key_cipher: d.sealedKey.cipher,
          key_hash: d.keyHash,
          status: d.status as TokenDocument['status'],
          created_time: d.createdTime,
          accessed_time: 0,
          used_quota: d.usedQuota,
          source_position: position,
          ...settingsFields(d),
        };
        await tokens.update(_id, { $setOnInsert: doc }, { upsert: true });
        return;
      }
      case 'TokenUpdated':
        await update(event.data.tokenId, { $set: settingsFields(event.data) });
        return;
      case 'TokenStatusChanged':
        await update(event.data.tokenId, { $set: { status: event.data.to } });
        return;
      case 'TokenDeleted':
        await tokens.delete(String(event.data.tokenId));
        return;
    }
  },
  // The usage receipts: a batch's receipts are one guarded write per token. A task refund gives its
  // charge back (new-api's `remain_quota += quota`, even past the cap), merged the same way.
  batched: {
    eventTypes: [...USAGE_EVENT_TYPES, ...TASK_REFUND_EVENT_TYPES],
    apply(recorded, writes, session) {
      if (recorded.type === 'TaskRefunded') {
        const { data } = recorded as unknown as TaskRefunded;
        if (data.tokenId === 0) return;
        writes.update(
          TOKENS,
          String(data.tokenId),
          { $inc: { remain_quota: data.quota, used_quota: -data.quota } },
          { position: Number(recorded.position.commit) },
        );
        return;
      }
      const { data } = recorded as unknown as UsageEvent;
      summaryMarkers.receipt(recorded, writes, session);
      if (data.tokenId === 0) return;
      writes.update(
        TOKENS,
        String(data.tokenId),
        {
          $inc: { remain_quota: -data.quota, used_quota: data.quota },
          $max: { accessed_time: Math.floor(recorded.recordedAt.getTime() / 1000) },
        },
        { position: Number(recorded.position.commit) },
      );
    },
  },
};
