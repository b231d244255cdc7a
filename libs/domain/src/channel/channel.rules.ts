import { channelTypeInfo, isValidChannelKey, ChannelStatus } from '@tollgate/contracts';
import { DomainError } from '../shared/domain-error';
import type { ChannelConfig } from './channel.events';
import { paramOverrideProblem } from './param-override';

/** Lowest priority the form allows. */
export const MIN_CHANNEL_PRIORITY = -999;

/** What an admin may send for a channel; absent fields keep their value (or the default). */
export type ChannelChanges = Partial<ChannelConfig>;

/** Splits a comma list (models, groups): trimmed, no empties, no duplicates, order kept. */
export function splitList(text: string): string[] {
  return [
    ...new Set(
      text
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    ),
  ];
}

/** A base URL the server may call: http(s) with a host ('' = the type's default, checked apart). */
export function assertHttpBaseUrl(baseUrl: string): void {
  if (!/^https?:\/\/[^\s/]+/i.test(baseUrl)) throw new DomainError('channel.base_url_invalid');
}

function isStringRecordJson(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return (
      typeof parsed === 'object' &&
      parsed !== null &&
      !Array.isArray(parsed) &&
      Object.values(parsed).every((value) => typeof value === 'string')
    );
  } catch {
    return false;
  }
}

function isObjectJson(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

function assertParamOverride(text: string): void {
  const problem = paramOverrideProblem(text);
  if (problem?.kind === 'invalid') throw new DomainError('channel.param_override_invalid');
  if (problem?.kind === 'protected')
    throw new DomainError('channel.param_override_protected', { keys: problem.keys.join(', ') });
}

/**
 * The console form's rules applied to a whole channel configuration: normalizes (trailing slashes,
 * list clean-up, clamped weight, the Azure / Spark `other` defaults) or throws the form's message.
 */
export function normalizeChannelConfig(config: ChannelConfig): ChannelConfig {
  const info = channelTypeInfo(config.type);
  if (!info) throw new DomainError('channel.type_unknown');
  const name = config.name.trim();
  // A name of invisible characters only (zero-width spaces, BOM) is no name.
  if (name.replace(/[\u200B-\u200D\u2060\uFEFF]/g, '').trim() === '')
    throw new DomainError('channel.name_key_required');
  const models = [...new Set(config.models.map((m) => m.trim()).filter((m) => m !== ''))];
  if (models.length === 0) throw new DomainError('channel.models_required');
  const groups = [...new Set(config.groups.map((g) => g.trim()).filter((g) => g !== ''))];
  const modelMapping = config.modelMapping.trim();
  if (modelMapping !== '' && !isStringRecordJson(modelMapping))
    throw new DomainError('channel.model_mapping_invalid');
  const statusCodeMapping = config.statusCodeMapping.trim();
  if (statusCodeMapping !== '' && !isStringRecordJson(statusCodeMapping))
    throw new DomainError('channel.status_code_mapping_invalid');
  const setting = config.setting.trim();
  if (setting !== '' && !isObjectJson(setting)) throw new DomainError('channel.setting_invalid');
  const paramOverride = (config.paramOverride ?? '').trim();
  assertParamOverride(paramOverride);
  if (!Number.isInteger(config.priority) || config.priority < MIN_CHANNEL_PRIORITY)
    throw new DomainError('channel.priority_too_low', { min: MIN_CHANNEL_PRIORITY });
  const baseUrl = config.baseUrl.trim().replace(/\/+$/, '');
  if (baseUrl !== '') assertHttpBaseUrl(baseUrl);
  let other = config.other.trim();
  if (other === '' && info.other?.default) other = info.other.default;
  if (info.other?.kind === 'region_json' && other !== '' && !isObjectJson(other))
    throw new DomainError('channel.region_invalid');
  return {
    ...config,
    name,
    baseUrl,
    other,
    models,
    groups: groups.length > 0 ? groups : ['default'],
    modelMapping,
    statusCodeMapping,
    setting,
    paramOverride,
    weight: Math.max(0, Math.floor(config.weight)),
    maxInputTokens: Math.max(0, Math.floor(config.maxInputTokens)),
    testModel: config.testModel.trim(),
    openaiOrganization: config.openaiOrganization.trim(),
    tag: config.tag.trim(),
  };
}

/**
 * What decides where a channel's key is sent: the type (the default host, the path, the header),
 * the base URL (the host), `other` (Vertex's and Tencent's region in the host, Cloudflare's
 * account in the path, Azure's API version). Headers other than the key's carry nothing a caller
 * picks. `setting` is not read by the relay (new-api keeps a proxy there; Tollgate does not honor
 * it): should it ever route traffic, it joins this list.
 */
export const KEY_TARGET_FIELDS = ['type', 'baseUrl', 'other'] as const satisfies ReadonlyArray<
  keyof ChannelConfig
>;

/** Whether `next` (normalized) would send the key somewhere `current` does not. */
export function retargetsKey(current: ChannelConfig, next: ChannelConfig): boolean {
  return KEY_TARGET_FIELDS.some((field) => current[field] !== next[field]);
}

/** One key (one line of the key field) in the format its type expects. */
export function assertValidChannelKey(type: number, key: string): void {
  if (key.trim() === '') throw new DomainError('channel.name_key_required');
  if (!isValidChannelKey(type, key.trim())) {
    const format = channelTypeInfo(type)?.keyFormat ?? 'api_key';
    throw new DomainError('channel.key_invalid', { format: format === 'json' ? 'JSON' : format });
  }
}

/**
 * An imported channel's configuration, normalized like an admin's where the rules allow: a type
 * missing from the console's table (relayed by number, or kept only for the record) is accepted,
 * and a channel that is not enabled keeps a configuration the rules would refuse (it serves
 * nothing until an administrator fixes it). An enabled channel must pass the rules.
 */
export function normalizeImportedChannelConfig(
  config: ChannelConfig,
  status: number,
): ChannelConfig {
  const known = channelTypeInfo(config.type) !== undefined;
  try {
    const normalized = normalizeChannelConfig(known ? config : { ...config, type: 1 });
    return { ...normalized, type: config.type };
  } catch (error) {
    if (status !== ChannelStatus.Enabled && error instanceof DomainError) return config;
    throw error;
  }
}
