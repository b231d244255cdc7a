import { eventTimeMs } from '@tollgate/event-store';
import type { Projection } from '@tollgate/read-store';
import {
  FAILURE_EVENT_TYPES,
  USAGE_EVENT_TYPES,
  type RequestFailed,
  type RequestRelayed,
} from '@tollgate/domain';
import { CHANNEL_OUTCOMES, MODEL_OUTCOMES } from './call-outcomes.document';

const HOUR = 3600;

/**
 * channel_outcomes and model_outcomes: every relayed call counted once per hour, answered
 * (RequestRelayed) or failed (RequestFailed), per channel (the answering one, or the last one
 * tried) and per user × model. The dashboard's failure rate is failed ÷ calls over its range.
 * Failed calls are counted while ErrorLogEnabled records them.
 */
export const callOutcomesProjection: Projection = {
  name: 'call-outcomes',
  version: 1,
  collections: [
    { name: CHANNEL_OUTCOMES, indexes: [{ fields: { created_at: 1 } }] },
    { name: MODEL_OUTCOMES, indexes: [{ fields: { user_id: 1, created_at: 1 } }] },
  ],
  eventTypes: [...USAGE_EVENT_TYPES, ...FAILURE_EVENT_TYPES],
  apply: () => Promise.resolve(),
  batched: {
    eventTypes: [...USAGE_EVENT_TYPES, ...FAILURE_EVENT_TYPES],
    apply(recorded, writes) {
      const d = recorded.data as RequestRelayed['data'] | RequestFailed['data'];
      const hour = Math.floor(eventTimeMs(recorded) / 1000 / HOUR) * HOUR;
      const $inc = { calls: 1, failed: recorded.type === 'RequestFailed' ? 1 : 0 };
      if (d.channelId > 0)
        writes.update(
          CHANNEL_OUTCOMES,
          `${hour}:${d.channelId}`,
          { $setOnInsert: { channel_id: d.channelId, created_at: hour }, $inc },
          { upsert: true },
        );
      writes.update(
        MODEL_OUTCOMES,
        `${d.userId}:${hour}:${d.model}`,
        { $setOnInsert: { user_id: d.userId, model_name: d.model, created_at: hour }, $inc },
        { upsert: true },
      );
    },
  },
};
