import {
  channelTypeInfo,
  isValidChannelKey,
  splitChannelKeys,
  type ChannelDto,
  type CreateChannelRequest,
} from '@tollgate/contracts';
import type { ParseKeys } from 'i18next';
import { splitList } from './channel-display';
import { MIN_PRIORITY, MIN_WEIGHT, normalizeChannelNumber } from './channel-numbers';

/** The add/edit panel's state: lists as lists, numbers as the inputs hold them. */
export interface ChannelFormValues {
  type: number;
  name: string;
  key: string;
  base_url: string;
  other: string;
  openai_organization: string;
  max_input_tokens: number;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  param_override: string;
  setting: string;
  test_model: string;
  tag: string;
  priority: string | number;
  weight: string | number;
  auto_ban: boolean;
}

export const DEFAULT_CHANNEL_TYPE = 1;

export function emptyChannelForm(): ChannelFormValues {
  return {
    type: DEFAULT_CHANNEL_TYPE,
    name: '',
    key: '',
    base_url: '',
    other: '',
    openai_organization: '',
    max_input_tokens: 0,
    models: [],
    groups: ['default'],
    model_mapping: '',
    status_code_mapping: '',
    param_override: '',
    setting: '',
    test_model: '',
    tag: '',
    priority: 0,
    weight: 0,
    auto_ban: true,
  };
}

/** A stored channel as the edit panel starts from; the key stays empty (write-only). */
export function channelToForm(channel: ChannelDto): ChannelFormValues {
  const groups = splitList(channel.group);
  return {
    type: channel.type,
    name: channel.name,
    key: '',
    base_url: channel.base_url ?? '',
    other: channel.other ?? '',
    openai_organization: channel.openai_organization ?? '',
    max_input_tokens: channel.max_input_tokens ?? 0,
    models: splitList(channel.models),
    groups: groups.length > 0 ? groups : ['default'],
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping ?? '',
    param_override: channel.param_override ?? '',
    setting: channel.setting ?? '',
    test_model: channel.test_model ?? '',
    tag: channel.tag ?? '',
    priority: channel.priority ?? 0,
    weight: channel.weight ?? 0,
    auto_ban: channel.auto_ban !== 0,
  };
}

/**
 * Choosing a type fills the type's default `other` (Azure 2023-06-01-preview, Spark v2.1)
 * when the field is empty or still holds the previous type's default.
 */
export function withType(values: ChannelFormValues, type: number): ChannelFormValues {
  const previousDefault = channelTypeInfo(values.type)?.other?.default ?? '';
  const keepOther = values.other !== '' && values.other !== previousDefault;
  const other = keepOther ? values.other : (channelTypeInfo(type)?.other?.default ?? '');
  return { ...values, type, other };
}

/** JSON text that must be an object when given (mappings, settings, Vertex regions). */
function isJsonObjectOrEmpty(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

export interface FormProblem {
  message: ParseKeys;
  /** The field the fault is about (shown on it). */
  field: keyof ChannelFormValues;
  /** The expected key format, for the key-format message. */
  format?: string;
}

/** The channel form rules, checked in the order one-api and new-api check them. */
export function validateChannelForm(
  values: ChannelFormValues,
  mode: 'create' | 'edit',
): FormProblem | null {
  const keys = splitChannelKeys(values.type, values.key);
  if (!values.name.trim() || (mode === 'create' && keys.length === 0)) {
    const field = values.name.trim() ? 'key' : 'name';
    return { message: 'channels.validation.nameAndKeyRequired', field };
  }
  const info = channelTypeInfo(values.type);
  const badKey = keys.find((key) => !isValidChannelKey(values.type, key));
  if (badKey !== undefined) {
    if (info?.jsonKey) return { message: 'channels.validation.keyJson', field: 'key' };
    const format = info?.keyFormat ?? 'api_key';
    return { message: 'channels.validation.keyFormat', format, field: 'key' };
  }
  if (values.models.length === 0)
    return { message: 'channels.validation.modelsRequired', field: 'models' };
  if (!isJsonObjectOrEmpty(values.model_mapping)) {
    return { message: 'channels.validation.modelMappingJson', field: 'model_mapping' };
  }
  if (!isJsonObjectOrEmpty(values.status_code_mapping)) {
    return { message: 'channels.validation.statusCodeMappingJson', field: 'status_code_mapping' };
  }
  if (!isJsonObjectOrEmpty(values.param_override)) {
    return { message: 'channels.validation.paramOverrideJson', field: 'param_override' };
  }
  if (!isJsonObjectOrEmpty(values.setting))
    return { message: 'channels.validation.settingJson', field: 'setting' };
  if (info?.other?.kind === 'region_json' && !isJsonObjectOrEmpty(values.other)) {
    return { message: 'channels.validation.otherJson', field: 'other' };
  }
  return null;
}

/**
 * The request body: lists joined with commas, trailing slashes cut from the base URL, the type's
 * default `other` when left empty, priority ≥ -999 and weight ≥ 0 (empty = not sent).
 */
export function formToRequest(values: ChannelFormValues): CreateChannelRequest {
  const info = channelTypeInfo(values.type);
  const priority = normalizeChannelNumber(values.priority, MIN_PRIORITY);
  const weight = normalizeChannelNumber(values.weight, MIN_WEIGHT);
  const body: CreateChannelRequest = {
    type: values.type,
    name: values.name.trim(),
    key: values.key.trim(),
    base_url: values.base_url.trim().replace(/\/+$/, ''),
    other: values.other.trim() || (info?.other?.default ?? ''),
    openai_organization: values.openai_organization.trim(),
    max_input_tokens: Math.max(0, Math.trunc(values.max_input_tokens) || 0),
    models: values.models.join(','),
    group: (values.groups.length > 0 ? values.groups : ['default']).join(','),
    model_mapping: values.model_mapping.trim(),
    status_code_mapping: values.status_code_mapping.trim(),
    param_override: values.param_override.trim(),
    setting: values.setting.trim(),
    test_model: values.test_model.trim(),
    tag: values.tag.trim(),
    auto_ban: values.auto_ban ? 1 : 0,
  };
  if (priority !== null) body.priority = priority;
  if (weight !== null) body.weight = weight;
  return body;
}

/**
 * Custom model names (comma-separated) added to the list; any name already there refuses the
 * whole addition (某些模型已存在！).
 */
export function addCustomModels(
  current: readonly string[],
  input: string,
): { models: string[] } | { duplicate: true } | null {
  const names = splitList(input);
  if (names.length === 0) return null;
  if (names.some((name) => current.includes(name))) return { duplicate: true };
  return { models: [...current, ...names] };
}

/** Union keeping the current order first. */
export function mergeModels(current: readonly string[], extra: readonly string[]): string[] {
  return Array.from(new Set([...current, ...extra]));
}
