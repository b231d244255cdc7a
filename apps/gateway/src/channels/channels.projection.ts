import { ChannelStatus } from '@tollgate/contracts';
import type { RecordedEvent } from '@tollgate/event-store';
import type { Collection, Projection, ReadStoreSession } from '@tollgate/read-store';
import {
  CHANNEL_EVENT_TYPES,
  TASK_REFUND_EVENT_TYPES,
  type ChannelConfig,
  type ChannelEvent,
  type RequestRelayed,
  type SealedSecret,
  type TaskRefunded,
} from '@tollgate/domain';
import {
  ABILITIES,
  CHANNEL_KEYS,
  CHANNELS,
  type AbilityDocument,
  type ChannelDocument,
  type ChannelKeysDocument,
} from './channel.document';
import { type ChannelKeyOpener, sealedKeysScrubber } from './sealed-key-scrubber';

/** Appended by POST /api/channel/fix: the projection recomputes every ability row. */
export const ROUTING_REBUILD_REQUESTED = 'RoutingRebuildRequested';
export const ROUTING_FIX_STREAM = 'routing-fix';

const configFields = (config: Partial<ChannelConfig>): Record<string, unknown> => {
  const set: Record<string, unknown> = {};
  if (config.type !== undefined) set['type'] = config.type;
  if (config.name !== undefined) set['name'] = config.name;
  if (config.baseUrl !== undefined) set['base_url'] = config.baseUrl;
  if (config.other !== undefined) set['other'] = config.other;
  if (config.models !== undefined) {
    set['models'] = config.models.join(',');
    set['model_list'] = [...config.models];
  }
  if (config.groups !== undefined) {
    set['group'] = config.groups.join(',');
    set['group_list'] = [...config.groups];
  }
  if (config.modelMapping !== undefined) set['model_mapping'] = config.modelMapping;
  if (config.statusCodeMapping !== undefined) set['status_code_mapping'] = config.statusCodeMapping;
  if (config.priority !== undefined) set['priority'] = config.priority;
  if (config.weight !== undefined) set['weight'] = config.weight;
  if (config.autoBan !== undefined) set['auto_ban'] = config.autoBan ? 1 : 0;
  if (config.testModel !== undefined) set['test_model'] = config.testModel;
  if (config.openaiOrganization !== undefined)
    set['openai_organization'] = config.openaiOrganization;
  if (config.maxInputTokens !== undefined) set['max_input_tokens'] = config.maxInputTokens;
  if (config.tag !== undefined) set['tag'] = config.tag;
  if (config.setting !== undefined) set['setting'] = config.setting;
  return set;
};

function fullConfigFields(c: ChannelConfig) {
  return {
    type: c.type,
    name: c.name,
    base_url: c.baseUrl,
    other: c.other,
    models: c.models.join(','),
    model_list: [...c.models],
    group: c.groups.join(','),
    group_list: [...c.groups],
    model_mapping: c.modelMapping,
    status_code_mapping: c.statusCodeMapping,
    priority: c.priority,
    weight: c.weight,
    auto_ban: c.autoBan ? 1 : 0,
    test_model: c.testModel,
    openai_organization: c.openaiOrganization,
    max_input_tokens: c.maxInputTokens,
    tag: c.tag,
    setting: c.setting,
  };
}

/** Rewrites the ability rows of one channel from its document (none when it is gone). */
async function writeAbilities(session: ReadStoreSession, channelId: number): Promise<number> {
  const abilities = session.collection<AbilityDocument>(ABILITIES);
  await abilities.deleteMany({ channel_id: channelId });
  const doc = await session.collection<ChannelDocument>(CHANNELS).get(String(channelId));
  if (!doc) return 0;
  for (const group of doc.group_list)
    for (const model of doc.model_list)
      await abilities.put({
        _id: `${group}|${model}|${channelId}`,
        group,
        model,
        channel_id: channelId,
        enabled: doc.status === ChannelStatus.Enabled,
        priority: doc.priority,
        weight: doc.weight,
        tag: doc.tag ?? '',
      });
  return doc.group_list.length * doc.model_list.length;
}

function guarded(channels: Collection<ChannelDocument>, position: number) {
  return (id: number, set: Record<string, unknown>) =>
    channels.updateMany(
      { _id: String(id), source_position: { $lt: position } },
      { $set: { ...set, source_position: position } },
    );
}

/** The sealed keys channel `id` has had, with `sealed` added (each once). */
async function rememberKey(
  session: ReadStoreSession,
  id: number,
  sealed: SealedSecret,
  first: boolean,
): Promise<void> {
  const keys = session.collection<ChannelKeysDocument>(CHANNEL_KEYS);
  const known = first ? [] : ((await keys.get(String(id)))?.sealed ?? []);
  if (known.some((k) => k.cipher === sealed.cipher)) return;
  await keys.put({ _id: String(id), sealed: [...known, sealed] });
}

/**
 * `reason` with every key channel `id` has had masked (a status reason recorded before the relay
 * masked keys quotes the provider's error as it came); as it is without an opener.
 */
async function maskedReason(
  session: ReadStoreSession,
  id: number,
  reason: string,
  openKey: ChannelKeyOpener | undefined,
): Promise<string> {
  if (!openKey || reason === '') return reason;
  const [keys, doc] = await Promise.all([
    session.collection<ChannelKeysDocument>(CHANNEL_KEYS).get(String(id)),
    session.collection<ChannelDocument>(CHANNELS).get(String(id)),
  ]);
  return sealedKeysScrubber(doc?.type ?? 0, keys?.sealed ?? [], openKey).text(reason);
}

/**
 * channels + abilities, from the channel-<id> streams and the usage receipts (used_quota, less the
 * task refunds). With `openKey` (the server's SecretBox), a key quoted in a status reason is
 * masked; without (collections, tests), reasons are copied as they are.
 */
export const channelsProjection = (openKey?: ChannelKeyOpener): Projection => ({
  name: 'channels',
  // 2: TaskRefunded takes a failed task's charge back out of used_quota.
  // 3: ChannelImported (channels taken over from a one-api / new-api database).
  // 4: channel_keys; status reasons with the channel's keys masked.
  version: 4,
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
    ...TASK_REFUND_EVENT_TYPES,
    ROUTING_REBUILD_REQUESTED,
  ],
  async apply(event: RecordedEvent, session) {
    const channels = session.collection<ChannelDocument>(CHANNELS);
    const position = Number(event.position.commit);
    const update = guarded(channels, position);
    if (event.type === ROUTING_REBUILD_REQUESTED) {
      await session.collection(ABILITIES).deleteMany({});
      for (const doc of await channels.find({})) await writeAbilities(session, doc.id);
      return;
    }
    const domainEvent = { type: event.type, data: event.data } as ChannelEvent;
    const id = domainEvent.data.channelId;
    switch (domainEvent.type) {
      case 'ChannelCreated': {
        const d = domainEvent.data;
        const existing = await channels.get(String(id));
        if (existing && existing.source_position >= position) return;
        await channels.put({
          _id: String(id),
          id,
          key: '',
          status: d.status,
          response_time: 0,
          created_time: d.createdTime,
          test_time: 0,
          balance: 0,
          balance_updated_time: 0,
          used_quota: 0,
          other_info: '{}',
          key_hash: d.key.hash,
          ...fullConfigFields(d.config),
          source_position: position,
        });
        await rememberKey(session, id, d.key, true);
        await writeAbilities(session, id);
        return;
      }
      case 'ChannelImported': {
        const d = domainEvent.data;
        const existing = await channels.get(String(id));
        if (existing && existing.source_position >= position) return;
        await rememberKey(session, id, d.key, true);
        const reason = openKey
          ? sealedKeysScrubber(d.config.type, [d.key], openKey).text(d.statusReason)
          : d.statusReason;
        const otherInfo =
          d.status === ChannelStatus.AutoDisabled
            ? { status_reason: reason, status_time: d.statusTime }
            : d.statusTime > 0
              ? { status_time: d.statusTime }
              : {};
        await channels.put({
          _id: String(id),
          id,
          key: '',
          status: d.status,
          response_time: d.responseTimeMs,
          created_time: d.createdTime,
          test_time: d.testTime,
          balance: d.balance,
          balance_updated_time: d.balanceUpdatedTime,
          used_quota: d.usedQuota,
          other_info: JSON.stringify(otherInfo),
          key_hash: d.key.hash,
          ...fullConfigFields(d.config),
          source_position: position,
        });
        await writeAbilities(session, id);
        return;
      }
      case 'ChannelUpdated': {
        const set = configFields(domainEvent.data.changes);
        if (domainEvent.data.key) {
          set['key_hash'] = domainEvent.data.key.hash;
          await rememberKey(session, id, domainEvent.data.key, false);
        }
        await update(id, set);
        await writeAbilities(session, id);
        return;
      }
      case 'ChannelStatusChanged': {
        const d = domainEvent.data;
        const otherInfo =
          d.to === 3
            ? {
                status_reason: await maskedReason(session, id, d.reason, openKey),
                status_time: d.time,
              }
            : { status_time: d.time };
        await update(id, { status: d.to, other_info: JSON.stringify(otherInfo) });
        await writeAbilities(session, id);
        return;
      }
      case 'ChannelTested':
        await update(id, {
          response_time: domainEvent.data.responseTimeMs,
          test_time: domainEvent.data.testTime,
        });
        return;
      case 'ChannelBalanceUpdated':
        await update(id, {
          balance: domainEvent.data.balance,
          balance_updated_time: domainEvent.data.updatedTime,
        });
        return;
      case 'ChannelDeleted':
        await channels.delete(String(id));
        await session.collection(CHANNEL_KEYS).delete(String(id));
        await writeAbilities(session, id);
        return;
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
