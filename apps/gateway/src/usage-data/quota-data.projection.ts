import { LogType } from '@tollgate/contracts';
import { eventTimeMs } from '@tollgate/event-store';
import { BatchMemo, type Projection, type ReadStoreSession } from '@tollgate/read-store';
import {
  LOG_IMPORT_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  type LogImported,
  type OptionChanged,
  type RequestRelayed,
  type TaskRefunded,
  type UserImported,
  type UserRegistered,
  type UserRenamed,
  type UsageSummarized,
} from '@tollgate/domain';
import { SummaryMarkers } from '../usage/summary-markers';
import { USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import {
  EXPORT_SWITCH,
  QUOTA_DATA,
  QUOTA_DATA_STATE,
  QUOTA_DATA_TOTAL,
  type QuotaDataStateDocument,
} from './quota-data.document';

type Source = UserRegistered | UserImported | UserRenamed | OptionChanged;

const HOUR = 3600;

/** The usage streams whose receipts these statistics counted (the reader rule). */
const summaryMarkers = new SummaryMarkers('quota_data_usage_sources');

/** The state documents (usernames, the export switch), read once per batch and written through. */
const stateMemo = new BatchMemo<QuotaDataStateDocument | null>();

async function putState(session: ReadStoreSession, doc: QuotaDataStateDocument): Promise<void> {
  await session.collection<QuotaDataStateDocument>(QUOTA_DATA_STATE).put(doc);
  stateMemo.set(session, doc._id, doc);
}

function stateOf(
  session: ReadStoreSession,
  id: string,
): QuotaDataStateDocument | null | Promise<QuotaDataStateDocument | null> {
  return stateMemo.get(session, id, () =>
    session.collection<QuotaDataStateDocument>(QUOTA_DATA_STATE).get(id),
  );
}

/**
 * quota_data: one row per user × model × hour with count, quota and tokens, summed from the usage
 * receipts while `DataExportEnabled` is on (as one-api and new-api only export then). The row id is the
 * key, so increments land on one document per hour. quota_data_total holds the same sums over
 * every user (model × hour), so the admin's unfiltered view reads at most models × hours rows.
 *
 * A task refund (TaskRefunded) takes its quota out of its model's row in the hour of the refund
 * (the charge may be in an earlier hour). Its count stays: the request was made, and −1 could drive
 * the refund hour's count below 0 when the charge was counted in another hour.
 */
export const quotaDataProjection: Projection = {
  name: 'quota-data',
  // 3: TaskRefunded subtracts its quota.
  // 4: imported users' names; imported consumption rows (LogImported type 2) in their own hour.
  // 5: UsageSummarized (retention) counted, in its hour, when none of its source's receipts were.
  version: 5,
  collections: [
    {
      name: QUOTA_DATA,
      indexes: [
        { fields: { user_id: 1, created_at: 1 } },
        { fields: { username: 1, created_at: 1 } },
      ],
    },
    { name: QUOTA_DATA_TOTAL, indexes: [{ fields: { created_at: 1 } }] },
    { name: QUOTA_DATA_STATE },
    summaryMarkers.spec,
  ],
  eventTypes: [
    'UserRegistered',
    'UserImported',
    'UserRenamed',
    'OptionChanged',
    'RequestRelayed',
    ...TASK_REFUND_EVENT_TYPES,
    ...LOG_IMPORT_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
  ],
  async apply(recorded, session) {
    if (recorded.type === 'UsageSummarized')
      return applySummary((recorded as unknown as UsageSummarized).data, session);
    const event = { type: recorded.type, data: recorded.data } as Source;
    switch (event.type) {
      case 'UserRegistered':
      case 'UserImported':
        await putState(session, { _id: String(event.data.userId), username: event.data.username });
        return;
      case 'UserRenamed':
        await putState(session, { _id: String(event.data.userId), username: event.data.to });
        return;
      case 'OptionChanged':
        if (event.data.key === 'DataExportEnabled') {
          await putState(session, { _id: EXPORT_SWITCH, enabled: event.data.value === 'true' });
        }
        return;
    }
  },
  // The usage receipts (and task refunds): a batch's receipts are one write per user × model × hour.
  batched: {
    eventTypes: ['RequestRelayed', ...TASK_REFUND_EVENT_TYPES, ...LOG_IMPORT_EVENT_TYPES],
    async apply(recorded, writes, session) {
      const event = recorded as unknown as RequestRelayed | TaskRefunded | LogImported;
      if (event.type === 'RequestRelayed') summaryMarkers.receipt(recorded, writes, session);
      // An imported row counts only when it is a consumption row, in the hour it was written.
      if (event.type === 'LogImported' && event.data.type !== LogType.Consume) return;
      // Default on (the option's default): only an explicit false stops the export.
      if ((await stateOf(session, EXPORT_SWITCH))?.enabled === false) return;
      const at = event.type === 'LogImported' ? event.data.createdAt * 1000 : eventTimeMs(recorded);
      const hour = Math.floor(at / 1000 / HOUR) * HOUR;
      const userId = event.data.userId;
      const model = event.type === 'LogImported' ? event.data.modelName : event.data.model;
      const username =
        event.type === 'LogImported'
          ? event.data.username
          : ((await stateOf(session, String(userId)))?.username ?? '');
      const $inc =
        event.type === 'TaskRefunded'
          ? { count: 0, quota: -event.data.quota, token_used: 0 }
          : {
              count: 1,
              quota: event.data.quota,
              token_used: event.data.promptTokens + event.data.completionTokens,
            };
      writes.update(
        QUOTA_DATA,
        `${userId}:${hour}:${model}`,
        {
          $setOnInsert: { user_id: userId, username, model_name: model, created_at: hour },
          $inc,
        },
        { upsert: true },
      );
      writes.update(
        QUOTA_DATA_TOTAL,
        `${hour}:${model}`,
        { $setOnInsert: { model_name: model, created_at: hour }, $inc },
        { upsert: true },
      );
    },
  },
};

/** A summary's rows in its hour (one per user × model), when none of its receipts were counted. */
async function applySummary(summary: UsageSummarized['data'], session: ReadStoreSession) {
  if (!(await summaryMarkers.counts(summary, session))) return;
  if ((await stateOf(session, EXPORT_SWITCH))?.enabled === false) return;
  const hour = Math.floor(summary.hourStart / 1000 / HOUR) * HOUR;
  for (const row of summary.rows) {
    const { userId, model } = row;
    const username = (await stateOf(session, String(userId)))?.username ?? '';
    const $inc = {
      count: row.requests,
      quota: row.quota,
      token_used: row.promptTokens + row.completionTokens,
    };
    await session
      .collection(QUOTA_DATA)
      .update(
        `${userId}:${hour}:${model}`,
        { $setOnInsert: { user_id: userId, username, model_name: model, created_at: hour }, $inc },
        { upsert: true },
      );
    await session
      .collection(QUOTA_DATA_TOTAL)
      .update(
        `${hour}:${model}`,
        { $setOnInsert: { model_name: model, created_at: hour }, $inc },
        { upsert: true },
      );
  }
}
