import { eventTimeMs, type RecordedEvent } from '@tollgate/event-store';
import type { Projection } from '@tollgate/read-store';
import {
  CHANNEL_EVENT_TYPES,
  FAILURE_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  type ChannelEvent,
  type RequestFailed,
  type RequestRelayed,
  type TaskRefunded,
} from '@tollgate/domain';
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
  version: 5,
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
  ],
  eventTypes: [
    ...CHANNEL_EVENT_TYPES,
    'RequestRelayed',
    ...FAILURE_EVENT_TYPES,
    ...TASK_REFUND_EVENT_TYPES,
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
    apply(event, writes) {
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
