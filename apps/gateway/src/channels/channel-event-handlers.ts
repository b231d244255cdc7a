import type { Collection, ReadStoreSession } from '@tollgate/read-store';
import { ChannelStatus } from '@tollgate/contracts';
import type {
  ChannelBalanceUpdated,
  ChannelConfig,
  ChannelCreated,
  ChannelDeleted,
  ChannelImported,
  ChannelStatusChanged,
  ChannelTested,
  ChannelUpdated,
  RequestFailed,
  SealedSecret,
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

/** What each handler of the channels projection works with, for one event. */
export interface ChannelApply {
  readonly session: ReadStoreSession;
  readonly channels: Collection<ChannelDocument>;
  /** The event's position: a document already at or past it has seen the event. */
  readonly position: number;
  readonly openKey: ChannelKeyOpener | undefined;
}

/** ChannelCreated: the whole document, its first key and its ability rows. */
export async function onChannelCreated(d: ChannelCreated['data'], apply: ChannelApply) {
  const { session, channels, position } = apply;
  const id = d.channelId;
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
}

/** ChannelImported: the document as the source database had it (status reason keys masked). */
export async function onChannelImported(d: ChannelImported['data'], apply: ChannelApply) {
  const { session, channels, position, openKey } = apply;
  const id = d.channelId;
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
}

export async function onChannelUpdated(d: ChannelUpdated['data'], apply: ChannelApply) {
  const set = configFields(d.changes);
  if (d.key) {
    set['key_hash'] = d.key.hash;
    await rememberKey(apply.session, d.channelId, d.key, false);
  }
  await update(apply, d.channelId, set);
  await writeAbilities(apply.session, d.channelId);
}

/** Only an automatic disable keeps its reason (shown as the channel's tooltip). */
export async function onChannelStatusChanged(d: ChannelStatusChanged['data'], apply: ChannelApply) {
  const id = d.channelId;
  const otherInfo =
    d.to === ChannelStatus.AutoDisabled
      ? {
          status_reason: await maskedReason(apply.session, id, d.reason, apply.openKey),
          status_time: d.time,
        }
      : { status_time: d.time };
  await update(apply, id, { status: d.to, other_info: JSON.stringify(otherInfo) });
  await writeAbilities(apply.session, id);
}

/** A test's time and outcome; a failed one is also the channel's last failure. */
export async function onChannelTested(d: ChannelTested['data'], apply: ChannelApply) {
  const set: Record<string, unknown> = {
    response_time: d.responseTimeMs,
    test_time: d.testTime,
    test_failed: !d.success,
  };
  if (!d.success) {
    set['last_failure_time'] = d.testTime;
    set['last_failure_reason'] = await maskedReason(
      apply.session,
      d.channelId,
      d.message,
      apply.openKey,
    );
    set['last_failure_status'] = d.status ?? 0;
  }
  await update(apply, d.channelId, set);
}

/** A relayed call that failed: the last channel tried has its last failure (time, reason). */
export async function onRequestFailed(
  d: RequestFailed['data'],
  apply: ChannelApply,
  occurredAtMs: number,
) {
  if (d.channelId <= 0) return;
  await update(apply, d.channelId, {
    last_failure_time: Math.floor(occurredAtMs / 1000),
    last_failure_reason: await maskedReason(apply.session, d.channelId, d.message, apply.openKey),
    last_failure_status: d.status,
  });
}

export async function onChannelBalanceUpdated(
  d: ChannelBalanceUpdated['data'],
  apply: ChannelApply,
) {
  await update(apply, d.channelId, { balance: d.balance, balance_updated_time: d.updatedTime });
}

export async function onChannelDeleted(d: ChannelDeleted['data'], apply: ChannelApply) {
  await apply.channels.delete(String(d.channelId));
  await apply.session.collection(CHANNEL_KEYS).delete(String(d.channelId));
  await writeAbilities(apply.session, d.channelId);
}

/** Rewrites the ability rows of one channel from its document (none when it is gone). */
export async function writeAbilities(
  session: ReadStoreSession,
  channelId: number,
): Promise<number> {
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

/** Sets fields of channel `id`, unless its document has seen this event already. */
function update(apply: ChannelApply, id: number, set: Record<string, unknown>) {
  return apply.channels.updateMany(
    { _id: String(id), source_position: { $lt: apply.position } },
    { $set: { ...set, source_position: apply.position } },
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

/** The document fields an update changes, for the config fields it carries. */
function configFields(config: Partial<ChannelConfig>): Record<string, unknown> {
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
  if (config.paramOverride !== undefined) set['param_override'] = config.paramOverride;
  return set;
}

/** The document fields of a whole config (creation, import). */
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
    param_override: c.paramOverride ?? '',
  };
}
