import { BatchMemo, type Projection, type ReadStoreSession } from '@tollgate/read-store';
import type { OptionChanged, RequestRelayed, UserRegistered, UserRenamed } from '@tollgate/domain';
import {
  EXPORT_SWITCH,
  QUOTA_DATA,
  QUOTA_DATA_STATE,
  QUOTA_DATA_TOTAL,
  type QuotaDataStateDocument,
} from './quota-data.document';

type Source = UserRegistered | UserRenamed | OptionChanged;

const HOUR = 3600;

/** The state documents (usernames, the export switch), read once per batch and written through. */
const stateMemo = new BatchMemo<QuotaDataStateDocument | null>();

async function putState(session: ReadStoreSession, doc: QuotaDataStateDocument): Promise<void> {
  await session.collection<QuotaDataStateDocument>(QUOTA_DATA_STATE).put(doc);
  stateMemo.set(session, doc._id, doc);
}

function stateOf(session: ReadStoreSession, id: string): Promise<QuotaDataStateDocument | null> {
  return stateMemo.get(session, id, () =>
    session.collection<QuotaDataStateDocument>(QUOTA_DATA_STATE).get(id),
  );
}

/**
 * quota_data: one row per user × model × hour with count, quota and tokens, summed from the usage
 * receipts while `DataExportEnabled` is on (as the anchors only export then). The row id is the
 * key, so increments land on one document per hour. quota_data_total holds the same sums over
 * every user (model × hour), so the admin's unfiltered view reads at most models × hours rows.
 */
export const quotaDataProjection: Projection = {
  name: 'quota-data',
  version: 2,
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
  ],
  eventTypes: ['UserRegistered', 'UserRenamed', 'OptionChanged', 'RequestRelayed'],
  async apply(recorded, session) {
    const event = { type: recorded.type, data: recorded.data } as Source;
    switch (event.type) {
      case 'UserRegistered':
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
  // The usage receipts: a batch's receipts are one write per user × model × hour.
  batched: {
    eventTypes: ['RequestRelayed'],
    async apply(recorded, writes, session) {
      // Default on (the option's default): only an explicit false stops the export.
      if ((await stateOf(session, EXPORT_SWITCH))?.enabled === false) return;
      const d = (recorded as unknown as RequestRelayed).data;
      const occurred = recorded.metadata['occurredAt'];
      const at =
        typeof occurred === 'string' ? Date.parse(occurred) : recorded.recordedAt.getTime();
      const hour = Math.floor(at / 1000 / HOUR) * HOUR;
      const username = (await stateOf(session, String(d.userId)))?.username ?? '';
      const $inc = { count: 1, quota: d.quota, token_used: d.promptTokens + d.completionTokens };
      writes.update(
        QUOTA_DATA,
        `${d.userId}:${hour}:${d.model}`,
        {
          $setOnInsert: { user_id: d.userId, username, model_name: d.model, created_at: hour },
          $inc,
        },
        { upsert: true },
      );
      writes.update(
        QUOTA_DATA_TOTAL,
        `${hour}:${d.model}`,
        { $setOnInsert: { model_name: d.model, created_at: hour }, $inc },
        { upsert: true },
      );
    },
  },
};
