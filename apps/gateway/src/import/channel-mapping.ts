import { channelTypeInfo, type ChannelStatusValue } from '@tollgate/contracts';
import {
  EMPTY_CHANNEL_CONFIG,
  MIN_CHANNEL_PRIORITY,
  PARAM_OVERRIDE_MAX_CHARS,
  parseParamOverride,
  protectedOverrideKeys,
  splitList,
  type ChannelConfig,
  type ImportSource,
} from '@tollgate/domain';
import { channelKeysOf } from './channel-keys';
import { channelEnablement, sourceStatusOf, type ChannelEnablement } from './channel-status';
import { routeChannelType, type RoutedType } from './channel-type-routing';
import type { Mapped, ReportItem } from './import-mapping';
import { ChannelRowNotes, type RowNotes } from './row-notes';
import type { SourceProject } from './source-database';
import { float, int, parseObject, rowIdOf, text } from './row-values';

type Row = Readonly<Record<string, unknown>>;

/** A channels row as ChannelImported facts; the key in clear, sealed by the writer, never reported. */
export interface ChannelFacts {
  readonly channelId: number;
  readonly key: string;
  readonly config: ChannelConfig;
  readonly status: ChannelStatusValue;
  readonly statusReason: string;
  readonly statusTime: number;
  readonly createdTime: number;
  readonly testTime: number;
  readonly responseTimeMs: number;
  readonly balance: number;
  readonly balanceUpdatedTime: number;
  readonly usedQuota: number;
  readonly sourceType: number;
  readonly source: ImportSource;
}
export interface MappedChannel {
  readonly channel: ChannelFacts;
  /**
   * The row's further distinct keys, in source order: one channel each, named `<name> #2`, `#3`, …,
   * configured as the row. Their ids are given where they are written (after the highest source
   * channel id), so the mapping stays a function of the row.
   */
  readonly extraChannels: readonly Omit<ChannelFacts, 'channelId'>[];
  readonly items: ReportItem[];
}

/** One channels row as ChannelImported facts, or why it is skipped. */
export function mapChannelRow(
  project: SourceProject,
  row: Row,
  importedAt: string,
): Mapped<MappedChannel> {
  const id = rowIdOf('channels', row);
  if ('skipped' in id) return id;
  const { rowId, at } = id;
  const notes = new ChannelRowNotes(at);

  const sourceType = int(row['type']);
  const routed = routeChannelType(project, sourceType, notes);
  const { type } = routed;
  const baseUrl = baseUrlOf(project, row, sourceType, routed, notes);
  const { keys, other } = channelKeysOf(project, type, row, notes);
  // The key's problems are told in this place among the reasons to come in disabled.
  const keyReasonAt = notes.disable.length;
  const config = channelConfigOf(row, rowId, { type, baseUrl, other }, notes);
  let usedQuota = int(row['used_quota']);
  if (usedQuota < 0) {
    notes.changed('used_quota', `${usedQuota} is negative: imported as 0`);
    usedQuota = 0;
  }
  const { status, statusReason, statusTime } = sourceStatusOf(project, row, type, keys, notes);
  const enablement = channelEnablement(type, status, config, notes, keyReasonAt);

  const key = keys[0] ?? '';
  const reasons = enablement.reasonsFor(key);
  if (reasons.length > 0) notes.changed('status', enablement.verdict(reasons));
  const common: Omit<ChannelFacts, 'channelId'> = {
    key,
    config,
    status: enablement.statusOf(reasons),
    statusReason,
    statusTime,
    createdTime: Math.max(0, int(row['created_time'])),
    testTime: Math.max(0, int(row['test_time'])),
    responseTimeMs: Math.max(0, int(row['response_time'])),
    balance: float(row['balance']),
    balanceUpdatedTime: Math.max(0, int(row['balance_updated_time'])),
    usedQuota,
    sourceType,
    source: { project, table: 'channels', rowId, importedAt },
  };
  return {
    channel: { channelId: rowId, ...common },
    extraChannels: extraChannelsOf(common, keys.slice(1), reasons, enablement, notes),
    items: notes.items,
  };
}

/**
 * Base URL: one-api's own default written in when the row had none and Tollgate's default for the
 * new type would differ (the meaning of the type number is lost otherwise).
 */
function baseUrlOf(
  project: SourceProject,
  row: Row,
  sourceType: number,
  { type, fillBase, endpoint }: RoutedType,
  notes: RowNotes,
): string {
  let baseUrl = text(row['base_url']).replace(/\/+$/, '');
  if (baseUrl !== '' && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
    notes.dropped('base_url', 'not an http(s) URL: the type default applies');
    baseUrl = '';
  }
  if (project === 'one-api' && sourceType === 51 && /\/v1beta\/openai$/.test(baseUrl)) {
    notes.changed(
      'base_url',
      "Gemini's OpenAI-compatible URL: the Gemini type's own address applies",
    );
    baseUrl = '';
  }
  const routedDefault = channelTypeInfo(type)?.defaultBaseUrl ?? '';
  if (endpoint !== '') {
    // The URL one-api called, whole: <base URL or one-api's default><endpoint>.
    const called = `${baseUrl || fillBase}${endpoint}`;
    notes.changed(
      'base_url',
      `one-api called ${baseUrl === '' ? '<its default>' : '<base URL>'}${endpoint} (chat only): the Custom channel calls ${called}`,
    );
    return called;
  }
  if (baseUrl === '' && fillBase !== '' && fillBase !== routedDefault) {
    notes.changed('base_url', `empty: ${project}'s default for its type written in (${fillBase})`);
    return fillBase;
  }
  return baseUrl;
}

/** The row's channel configuration; a channel that lists no models comes in disabled. */
function channelConfigOf(
  row: Row,
  rowId: number,
  routed: Pick<ChannelConfig, 'type' | 'baseUrl' | 'other'>,
  notes: ChannelRowNotes,
): ChannelConfig {
  const jsonFields = jsonFieldsOf(row, notes);
  let name = text(row['name']);
  if (name === '') {
    name = `channel-${rowId}`;
    notes.changed('name', `empty: named ${name}`);
  }
  const models = splitList(text(row['models']));
  if (models.length === 0) notes.disable.push('it lists no models');
  let priority = int(row['priority']);
  if (priority < MIN_CHANNEL_PRIORITY) {
    notes.changed(
      'priority',
      `${priority} is below ${MIN_CHANNEL_PRIORITY}: imported as ${MIN_CHANNEL_PRIORITY}`,
    );
    priority = MIN_CHANNEL_PRIORITY;
  }
  return {
    ...EMPTY_CHANNEL_CONFIG,
    ...routed,
    name,
    models,
    groups: splitList(text(row['group'])),
    ...jsonFields,
    priority,
    weight: Math.max(0, int(row['weight'])),
    autoBan:
      row['auto_ban'] === undefined || row['auto_ban'] === null || int(row['auto_ban']) !== 0,
    testModel: text(row['test_model']),
    openaiOrganization: text(row['open_ai_organization']),
    tag: text(row['tag']),
  };
}

/** The JSON-valued fields Tollgate keeps, each dropped when it is not what it should be. */
function jsonFieldsOf(
  row: Row,
  notes: RowNotes,
): Pick<ChannelConfig, 'modelMapping' | 'statusCodeMapping' | 'setting' | 'paramOverride'> {
  if (text(row['system_prompt']) !== '')
    notes.dropped('system_prompt', 'channel system prompts are not supported');
  const checked = (field: string, valid: (raw: string) => boolean, what: string): string => {
    const raw = text(row[field]);
    if (raw === '' || valid(raw)) return raw;
    notes.dropped(field, `not a JSON object${what}`);
    return '';
  };
  return {
    modelMapping: checked('model_mapping', isStringRecord, ' of model names'),
    statusCodeMapping: checked('status_code_mapping', isStringRecord, ' of status codes'),
    setting: checked('setting', (raw) => parseObject(raw) !== null, ''),
    paramOverride: paramOverrideOf(text(row['param_override']), notes),
  };
}

/**
 * new-api's parameter override (one-api has none): dropped when it is not a JSON object within
 * the size the console allows; the members Tollgate lets no override set (model, stream) left out.
 */
function paramOverrideOf(raw: string, notes: RowNotes): string {
  if (raw === '') return '';
  const parsed = parseParamOverride(raw);
  if (!parsed) {
    notes.dropped(
      'param_override',
      `not a JSON object of at most ${PARAM_OVERRIDE_MAX_CHARS} characters`,
    );
    return '';
  }
  const refused = protectedOverrideKeys(parsed);
  if (refused.length === 0) return raw;
  for (const key of refused) delete parsed[key];
  notes.changed(
    'param_override',
    `${refused.join(', ')} left out: billing and the answer format follow the client's request`,
  );
  return Object.keys(parsed).length > 0 ? JSON.stringify(parsed) : '';
}

const isStringRecord = (raw: string): boolean => {
  const parsed = parseObject(raw);
  return parsed !== null && Object.values(parsed).every((v) => typeof v === 'string');
};

/**
 * The row's other keys: the same configuration and status under `<name> #n`. The row's used quota,
 * balance and test figures stay with the row's own channel (counted once; not measured per key).
 */
function extraChannelsOf(
  common: Omit<ChannelFacts, 'channelId'>,
  extraKeys: readonly string[],
  rowReasons: readonly string[],
  enablement: ChannelEnablement,
  notes: RowNotes,
): Omit<ChannelFacts, 'channelId'>[] {
  return extraKeys.map((extraKey, i) => {
    const extraName = `${common.config.name} #${i + 2}`;
    const reasons = enablement.reasonsFor(extraKey);
    if (reasons.length > 0 && reasons.join('; ') !== rowReasons.join('; '))
      notes.changed('status', `${extraName}: ${enablement.verdict(reasons)}`);
    return {
      ...common,
      key: extraKey,
      config: { ...common.config, name: extraName },
      status: enablement.statusOf(reasons),
      testTime: 0,
      responseTimeMs: 0,
      balance: 0,
      balanceUpdatedTime: 0,
      usedQuota: 0,
    };
  });
}
