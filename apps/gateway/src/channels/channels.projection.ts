import { eventTimeMs, type RecordedEvent } from '@tollgate/event-store';
import type { Projection, ReadStoreSession } from '@tollgate/read-store';
import {
  CHANNEL_EVENT_TYPES,
  FAILURE_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  type ChannelEvent,
  type RequestFailed,
  type RequestRelayed,
  type TaskRefunded,
  type UsageSummarized,
} from '@tollgate/domain';
import { SummaryMarkers } from '../usage/summary-markers';
import { sumRows, USAGE_SUMMARY_EVENT_TYPES } from '../usage/summary-sources';
import {
  onChannelBalanceUpdated,
  onChannelCreated,
  onChannelDeleted,
  onChannelImported,
  onChannelStatusChanged,
  onChannelTested,
  onChannelUpdated,
  onRequestFailed,
  writeAbilities,
  type ChannelApply,
} from './channel-event-handlers';
import { ABILITIES, CHANNEL_KEYS, CHANNELS, type ChannelDocument } from './channel.document';
import type { ChannelKeyOpener } from './sealed-key-scrubber';

/** Appended by POST /api/channel/fix: the projection recomputes every ability row. */
export const ROUTING_REBUILD_REQUESTED = 'RoutingRebuildRequested';
export const ROUTING_FIX_STREAM = 'routing-fix';

/** The usage streams whose receipts the channels read model counted (the reader rule). */
const summaryMarkers = new SummaryMarkers('channels_usage_sources');

/**
 * channels + abilities, from the channel-<id> streams and the usage receipts (used_quota, less the
 * task refunds); a failed call (RequestFailed) or test sets the channel's last failure. With `openKey` (the server's SecretBox), a key quoted in a status reason is
 * masked; without (collections, tests), reasons are copied as they are.
 */
export const channelsProjection = (openKey?: ChannelKeyOpener): Projection => ({
  name: 'channels',
  // 2: TaskRefunded takes a failed task's charge back out of used_quota.
  // 3: ChannelImported (channels taken over from a one-api / new-api database).
  // 4: channel_keys; status reasons with the channel's keys masked.
  // 5: the last failure (RequestFailed, failed tests) and whether the last test failed.
  // 6: UsageSummarized (retention) counted when none of its source's receipts were.
  version: 6,
  collections: [
    {
      name: CHANNELS,
      indexes: [{ fields: { id: 1 } }, { fields: { status: 1 } }, { fields: { priority: -1 } }],
    },
    {
      name: ABILITIES,
      indexes: [{ fields: { group: 1, model: 1 } }, { fields: { channel_id: 1 } }],
    },
    { name: CHANNEL_KEYS },
    summaryMarkers.spec,
  ],
  eventTypes: [
    ...CHANNEL_EVENT_TYPES,
    'RequestRelayed',
    ...FAILURE_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
    ...USAGE_SUMMARY_EVENT_TYPES,
    ROUTING_REBUILD_REQUESTED,
  ],
  async apply(event: RecordedEvent, session) {
    const channels = session.collection<ChannelDocument>(CHANNELS);
    if (event.type === ROUTING_REBUILD_REQUESTED) {
      await session.collection(ABILITIES).deleteMany({});
      for (const doc of await channels.find({})) await writeAbilities(session, doc.id);
      return;
    }
    const position = Number(event.position.commit);
    if (event.type === 'UsageSummarized')
      return applySummary((event as unknown as UsageSummarized).data, session, position);
    const apply: ChannelApply = { session, channels, position, openKey };
    if (event.type === 'RequestFailed')
      return onRequestFailed(event.data as RequestFailed['data'], apply, eventTimeMs(event));
    // Each event type has its own handler (channel-event-handlers.ts).
    const domainEvent = { type: event.type, data: event.data } as ChannelEvent;
    switch (domainEvent.type) {
      case 'ChannelCreated':
        return onChannelCreated(domainEvent.data, apply);
      case 'ChannelImported':
        return onChannelImported(domainEvent.data, apply);
      case 'ChannelUpdated':
        return onChannelUpdated(domainEvent.data, apply);
      case 'ChannelStatusChanged':
        return onChannelStatusChanged(domainEvent.data, apply);
      case 'ChannelTested':
        return onChannelTested(domainEvent.data, apply);
      case 'ChannelBalanceUpdated':
        return onChannelBalanceUpdated(domainEvent.data, apply);
      case 'ChannelDeleted':
        return onChannelDeleted(domainEvent.data, apply);
    }
  },
  // The usage receipts: a batch's receipts are one guarded write per channel; a task refund takes
  // its charge back out the same way.
  batched: {
    eventTypes: ['RequestRelayed', ...TASK_REFUND_EVENT_TYPES],
    apply(event, writes, session) {
      if (event.type === 'RequestRelayed') summaryMarkers.receipt(event, writes, session);
      const data = event.data as RequestRelayed['data'] | TaskRefunded['data'];
      if (data.channelId <= 0) return;
      const quota = event.type === 'TaskRefunded' ? -data.quota : data.quota;
      writes.update(
        CHANNELS,
        String(data.channelId),
        { $inc: { used_quota: quota } },
        { position: Number(event.position.commit) },
      );
    },
  },
});

/** A summary's quota per channel, when none of its source's receipts were counted here. */
async function applySummary(
  summary: UsageSummarized['data'],
  session: ReadStoreSession,
  position: number,
): Promise<void> {
  if (!(await summaryMarkers.counts(summary, session))) return;
  const channels = session.collection<ChannelDocument>(CHANNELS);
  for (const [channelId, sum] of sumRows(summary.rows, (r) =>
    r.channelId > 0 ? r.channelId : null,
  ))
    await channels.updateMany(
      { _id: String(channelId), source_position: { $lt: position } },
      { $inc: { used_quota: sum.quota }, $set: { source_position: position } },
    );
}
