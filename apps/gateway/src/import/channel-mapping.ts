import { channelTypeInfo, isValidChannelKey } from '@tollgate/contracts';
import {
  DomainError,
  EMPTY_CHANNEL_CONFIG,
  MIN_CHANNEL_PRIORITY,
  normalizeImportedChannelConfig,
  splitList,
  type ChannelConfig,
  type ImportSource,
} from '@tollgate/domain';
import { channelKeySecrets, channelProtocol, SecretScrubber } from '@tollgate/relay';
import { translate } from '../shared/i18n/messages';
import type { Mapped, ReportItem } from './import-mapping';
import type { SourceProject } from './source-database';
import { float, int, rowIdOf, text } from './row-values';

type Row = Record<string, unknown>;

/** A channels row as ChannelImported facts; the key in clear, sealed by the writer, never reported. */
export interface ChannelFacts {
  readonly channelId: number;
  readonly key: string;
  readonly config: ChannelConfig;
  readonly status: 1 | 2 | 3;
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

/**
 * one-api's channel types (its own numbering) → new-api's, with one-api's default base URL
 * (docs/import.md, "Channels"). `to: 1` for a provider new-api has no type for, relayed as
 * OpenAI-compatible at that base URL; `to: null` for one with no counterpart at all.
 */
interface OneApiType {
  readonly name: string;
  readonly to: number | null;
  /** one-api's default base URL (used when the row has none and the meaning would be lost). */
  readonly base?: string;
  /**
   * one-api built `<base><endpoint>` itself for this type (chat only): it comes in as Custom (8),
   * whose base URL is the endpoint the relay calls as given.
   */
  readonly endpoint?: string;
}
export const ONE_API_TYPES: Readonly<Record<number, OneApiType>> = {
  0: { name: 'Unknown', to: 0 },
  1: { name: 'OpenAI', to: 1, base: 'https://api.openai.com' },
  2: { name: 'API2D', to: 1, base: 'https://oa.api2d.net' },
  3: { name: 'Azure', to: 3 },
  4: { name: 'CloseAI', to: 1, base: 'https://api.closeai-proxy.xyz' },
  5: { name: 'OpenAI-SB', to: 1, base: 'https://api.openai-sb.com' },
  6: { name: 'OpenAIMax', to: 6, base: 'https://api.openaimax.com' },
  7: { name: 'OhMyGPT', to: 7, base: 'https://api.ohmygpt.com' },
  8: { name: 'Custom', to: 8 },
  9: { name: 'Ails', to: 9, base: 'https://api.caipacity.com' },
  10: { name: 'AIProxy', to: 10, base: 'https://api.aiproxy.io' },
  11: { name: 'PaLM', to: 11 },
  12: { name: 'API2GPT', to: 12 },
  13: { name: 'AIGC2D', to: 13 },
  14: { name: 'Anthropic', to: 14 },
  15: { name: 'Baidu', to: 15 },
  16: { name: 'Zhipu', to: 16 },
  17: { name: 'Ali', to: 17 },
  18: { name: 'Xunfei', to: 18 },
  19: { name: 'AI360', to: 19, base: 'https://ai.360.cn' },
  20: { name: 'OpenRouter', to: 20 },
  21: { name: 'AIProxyLibrary', to: 21 },
  22: { name: 'FastGPT', to: 22 },
  23: { name: 'Tencent', to: 23 },
  24: { name: 'Gemini', to: 24 },
  25: { name: 'Moonshot', to: 25 },
  26: { name: 'Baichuan', to: 1, base: 'https://api.baichuan-ai.com' },
  27: { name: 'Minimax', to: 35, base: 'https://api.minimax.chat' },
  28: { name: 'Mistral', to: 42, base: 'https://api.mistral.ai' },
  29: { name: 'Groq', to: 1, base: 'https://api.groq.com/openai' },
  30: { name: 'Ollama', to: 4, base: 'http://localhost:11434' },
  31: { name: 'LingYiWanWu', to: 31 },
  32: { name: 'StepFun', to: 1, base: 'https://api.stepfun.com' },
  33: { name: 'AwsClaude', to: 33 },
  34: { name: 'Coze', to: null, base: 'https://api.coze.com' },
  35: { name: 'Cohere', to: 34 },
  36: { name: 'DeepSeek', to: 43, base: 'https://api.deepseek.com' },
  37: { name: 'Cloudflare', to: 39 },
  38: { name: 'DeepL', to: null },
  39: { name: 'TogetherAI', to: 1, base: 'https://api.together.xyz' },
  40: { name: 'Doubao', to: 45, base: 'https://ark.cn-beijing.volces.com' },
  // one-api calls <base>/chat/completions (and nothing else); OpenAI (1) would call <base>/v1/….
  41: {
    name: 'Novita',
    to: 8,
    base: 'https://api.novita.ai/v3/openai',
    endpoint: '/chat/completions',
  },
  42: { name: 'VertexAI', to: 41 },
  43: { name: 'Proxy', to: null },
  44: { name: 'SiliconFlow', to: 40, base: 'https://api.siliconflow.cn' },
  45: { name: 'XAI', to: 48, base: 'https://api.x.ai' },
  46: { name: 'Replicate', to: null },
  47: { name: 'BaiduV2', to: 46, base: 'https://qianfan.baidubce.com' },
  48: { name: 'XunfeiV2', to: 1, base: 'https://spark-api-open.xf-yun.com' },
  // one-api calls <base>/compatible-mode/v1/...: the same path under this base.
  49: { name: 'AliBailian', to: 1, base: 'https://dashscope.aliyuncs.com/compatible-mode' },
  50: { name: 'OpenAICompatible', to: 1 },
  51: { name: 'GeminiOpenAICompatible', to: 24 },
};

/**
 * new-api types Tollgate relays on the OpenAI wire at `/v1/...` but has no console type for: they
 * become OpenAI (1) with their provider's base URL, so they stay editable and routable.
 */
const OPENAI_LIKE: Readonly<Record<number, { name: string; base: string }>> = {
  6: { name: 'OpenAIMax', base: 'https://api.openaimax.com' },
  7: { name: 'OhMyGPT', base: 'https://api.ohmygpt.com' },
  9: { name: 'AILS', base: 'https://api.caipacity.com' },
  42: { name: 'Mistral', base: 'https://api.mistral.ai' },
  48: { name: 'xAI', base: 'https://api.x.ai' },
};

function parseObject(raw: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
const isStringRecord = (raw: string): boolean => {
  const parsed = parseObject(raw);
  return parsed !== null && Object.values(parsed).every((v) => typeof v === 'string');
};

/** Whether Tollgate can serve a channel of this (new-api) type: the console lists it or the relay speaks it. */
export function isSupportedChannelType(type: number): boolean {
  return channelTypeInfo(type) !== undefined || channelProtocol(type).kind !== 'unsupported';
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
  const items: ReportItem[] = [];
  const changed = (field: string, reason: string) =>
    items.push({ ...at, action: 'changed', field, reason });
  const dropped = (field: string, reason: string) =>
    items.push({ ...at, action: 'dropped', field, reason });
  /** Reasons the channel cannot be enabled here: it comes in disabled by hand. */
  const disable: string[] = [];

  const sourceType = int(row['type']);
  let type = sourceType;
  let fillBase = '';
  let endpoint = '';
  if (project === 'one-api') {
    const known = ONE_API_TYPES[sourceType];
    if (!known) {
      type = 0;
      disable.push(`one-api type ${sourceType} is unknown`);
    } else if (known.to === null) {
      type = 0;
      disable.push(`one-api type ${sourceType} (${known.name}) has no new-api counterpart`);
    } else {
      type = known.to;
      if (type !== sourceType)
        changed(
          'type',
          `one-api type ${sourceType} (${known.name}) is new-api type ${type}${
            type === 1 ? ' (OpenAI-compatible)' : ''
          }${known.endpoint ? ' (Custom: the base URL is the endpoint called)' : ''}`,
        );
      fillBase = known.base ?? '';
      endpoint = known.endpoint ?? '';
    }
  }
  // new-api types the relay speaks at /v1 but the console does not list: OpenAI at their base URL.
  const openaiLike = OPENAI_LIKE[type];
  if (openaiLike && channelTypeInfo(type) === undefined) {
    changed(
      'type',
      `new-api type ${type} (${openaiLike.name}) is imported as OpenAI-compatible (1) at its base URL`,
    );
    fillBase ||= openaiLike.base;
    type = 1;
  }
  if (!isSupportedChannelType(type) && disable.length === 0)
    disable.push(`type ${type} is not supported by Tollgate`);

  // Base URL: one-api's own default written in when the row had none and Tollgate's default for
  // the new type would differ (the meaning of the type number is lost otherwise).
  let baseUrl = text(row['base_url']).replace(/\/+$/, '');
  if (baseUrl !== '' && !/^https?:\/\/[^\s/]+/i.test(baseUrl)) {
    dropped('base_url', 'not an http(s) URL: the type default applies');
    baseUrl = '';
  }
  if (project === 'one-api' && sourceType === 51 && /\/v1beta\/openai$/.test(baseUrl)) {
    changed('base_url', "Gemini's OpenAI-compatible URL: the Gemini type's own address applies");
    baseUrl = '';
  }
  const routedDefault = channelTypeInfo(type)?.defaultBaseUrl ?? '';
  if (endpoint !== '') {
    // The URL one-api called, whole: <base URL or one-api's default><endpoint>.
    const called = `${baseUrl || fillBase}${endpoint}`;
    changed(
      'base_url',
      `one-api called ${baseUrl === '' ? '<its default>' : '<base URL>'}${endpoint} (chat only): the Custom channel calls ${called}`,
    );
    baseUrl = called;
  } else if (baseUrl === '' && fillBase !== '' && fillBase !== routedDefault) {
    baseUrl = fillBase;
    changed('base_url', `empty: ${project}'s default for its type written in (${fillBase})`);
  }

  // config (one-api only): its fields move to new-api's places.
  let config: Record<string, unknown> = {};
  const configText = text(row['config']);
  if (configText !== '') {
    const parsed = parseObject(configText);
    if (parsed) config = parsed;
    else dropped('config', 'not valid JSON');
  }
  const cfg = (name: string) => text(config[name]);
  let other = text(row['other']);
  const moveToOther = (field: string) => {
    const value = cfg(field);
    if (value !== '' && value !== other) {
      other = value;
      changed('other', `config.${field} moved to other`);
    }
  };

  // Key: one per channel (new-api and Tollgate alike); a JSON key (Vertex) stays whole. Several
  // lines are several channels: the row's own takes the first key, each other distinct line one
  // more channel (extraChannels; the writer reports their ids).
  let keys = [text(row['key'])];
  if (!channelTypeInfo(type)?.jsonKey) {
    const lines = (keys[0] ?? '')
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    keys = [...new Set(lines)];
    const repeated = lines.length - keys.length;
    if (repeated > 0)
      dropped(
        'key',
        `${repeated} repeated ${repeated === 1 ? 'line' : 'lines'}: each distinct key is imported once`,
      );
  }
  let key = keys[0] ?? '';

  if (project === 'one-api') {
    switch (type) {
      case 3: // Azure
      case 18: // Xunfei
      case 24: // Gemini
        moveToOther('api_version');
        break;
      case 17: // Ali
        moveToOther('plugin');
        break;
      case 21: // AIProxy library
        moveToOther('library_id');
        break;
      case 39: // Cloudflare: the account id
        moveToOther('user_id');
        break;
      case 33: {
        // AWS: config {ak, sk, region} → key `ak|sk|region`.
        const [ak, sk, region] = [cfg('ak'), cfg('sk'), cfg('region')];
        if (ak && sk && region) {
          key = `${ak}|${sk}|${region}`;
          keys = [key];
          changed('key', 'config.ak, config.sk and config.region joined as the key ak|sk|region');
        }
        break;
      }
      case 41: {
        // Vertex: the service-account JSON becomes the key, the region the `other` JSON.
        const adc = cfg('vertex_ai_adc');
        if (adc !== '') {
          key = adc;
          keys = [key];
          changed('key', 'config.vertex_ai_adc (service-account JSON) is the key');
        }
        const region = cfg('region');
        if (region !== '') {
          other = JSON.stringify({ default: region });
          changed('other', 'config.region moved to other as {"default": region}');
        }
        const projectId = cfg('vertex_ai_project_id');
        const inKey = parseObject(key)?.['project_id'];
        if (projectId !== '' && projectId !== inKey)
          dropped(
            'config.vertex_ai_project_id',
            "the project is read from the service-account JSON's project_id",
          );
        break;
      }
    }
  }
  if (type === 41 && other !== '' && parseObject(other) === null) {
    // new-api accepts a bare region too; Tollgate's Vertex `other` is the region JSON.
    other = JSON.stringify({ default: other });
    changed('other', 'a bare region: written as {"default": region}');
  }
  // Checked per key (each is a channel), in this place among the reasons.
  const keyReasonAt = disable.length;
  const keyProblem = (k: string): string | null => {
    if (k === '') return 'the key is empty';
    if (isSupportedChannelType(type) && !isValidChannelKey(type, k))
      return `the key is not in the ${channelTypeInfo(type)?.keyFormat ?? 'api_key'} format`;
    return null;
  };

  const systemPrompt = text(row['system_prompt']);
  if (systemPrompt !== '') dropped('system_prompt', 'channel system prompts are not supported');
  const paramOverride = text(row['param_override']);
  if (paramOverride !== '') dropped('param_override', 'parameter overrides are not supported');

  let modelMapping = text(row['model_mapping']);
  if (modelMapping !== '' && !isStringRecord(modelMapping)) {
    dropped('model_mapping', 'not a JSON object of model names');
    modelMapping = '';
  }
  let statusCodeMapping = text(row['status_code_mapping']);
  if (statusCodeMapping !== '' && !isStringRecord(statusCodeMapping)) {
    dropped('status_code_mapping', 'not a JSON object of status codes');
    statusCodeMapping = '';
  }
  let setting = text(row['setting']);
  if (setting !== '' && parseObject(setting) === null) {
    dropped('setting', 'not a JSON object');
    setting = '';
  }

  let name = text(row['name']);
  if (name === '') {
    name = `channel-${rowId}`;
    changed('name', `empty: named ${name}`);
  }
  const models = splitList(text(row['models']));
  if (models.length === 0) disable.push('it lists no models');
  let priority = int(row['priority']);
  if (priority < MIN_CHANNEL_PRIORITY) {
    changed(
      'priority',
      `${priority} is below ${MIN_CHANNEL_PRIORITY}: imported as ${MIN_CHANNEL_PRIORITY}`,
    );
    priority = MIN_CHANNEL_PRIORITY;
  }
  let usedQuota = int(row['used_quota']);
  if (usedQuota < 0) {
    changed('used_quota', `${usedQuota} is negative: imported as 0`);
    usedQuota = 0;
  }

  const channelConfig: ChannelConfig = {
    ...EMPTY_CHANNEL_CONFIG,
    type,
    name,
    baseUrl,
    other,
    models,
    groups: splitList(text(row['group'])),
    modelMapping,
    statusCodeMapping,
    priority,
    weight: Math.max(0, int(row['weight'])),
    autoBan:
      row['auto_ban'] === undefined || row['auto_ban'] === null || int(row['auto_ban']) !== 0,
    testModel: text(row['test_model']),
    openaiOrganization: text(row['open_ai_organization']),
    tag: text(row['tag']),
    setting,
  };

  // Status: 1 enabled, 2 disabled by hand, 3 disabled automatically (its reason from new-api's
  // other_info when it has one).
  let status = int(row['status']);
  if (status !== 1 && status !== 2 && status !== 3) {
    changed('status', `unknown status ${status}: imported as disabled`);
    status = 2;
  }
  const info = parseObject(text(row['other_info'])) ?? {};
  // The source kept the provider's error as it came: a key it quotes is masked before the event.
  const keySecrets = SecretScrubber.of(keys.flatMap((k) => channelKeySecrets(type, k)));
  let statusReason = status === 3 ? keySecrets.text(text(info['status_reason'])) : '';
  if (status === 3 && statusReason === '') statusReason = `disabled automatically in ${project}`;
  const statusTime = Math.max(0, int(info['status_time']));
  // The console's rules on the configuration, checked once when nothing else disables it.
  let configProblem: string | null = null;
  if (status === 1 && disable.length === 0) {
    try {
      normalizeImportedChannelConfig(channelConfig, 1);
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      configProblem = translate(error.code, error.params, 'en');
    }
  }
  /** Why the channel of key `k` cannot be enabled (empty: it can). */
  const reasonsFor = (k: string): string[] => {
    const problem = keyProblem(k);
    const reasons = [...disable.slice(0, keyReasonAt)];
    if (problem !== null) reasons.push(problem);
    reasons.push(...disable.slice(keyReasonAt));
    if (reasons.length === 0 && configProblem !== null) reasons.push(configProblem);
    return reasons;
  };
  const statusOf = (reasons: readonly string[]): 1 | 2 | 3 =>
    reasons.length > 0 && status === 1 ? 2 : (status as 1 | 2 | 3);
  const verdict = (reasons: readonly string[]): string =>
    `${status === 1 ? 'imported disabled' : 'stays disabled'}: ${reasons.join('; ')}`;

  const reasons = reasonsFor(key);
  if (reasons.length > 0) changed('status', verdict(reasons));

  const common: Omit<ChannelFacts, 'channelId'> = {
    key,
    config: channelConfig,
    status: statusOf(reasons),
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
  const facts: ChannelFacts = { channelId: rowId, ...common };
  // The other keys: the same configuration and status under `<name> #n`. The row's used quota,
  // balance and test figures stay with the row's own channel (counted once; not measured per key).
  const extraChannels = keys.slice(1).map((extraKey, i): Omit<ChannelFacts, 'channelId'> => {
    const extraName = `${name} #${i + 2}`;
    const extraReasons = reasonsFor(extraKey);
    if (extraReasons.length > 0 && extraReasons.join('; ') !== reasons.join('; '))
      changed('status', `${extraName}: ${verdict(extraReasons)}`);
    return {
      ...common,
      key: extraKey,
      config: { ...channelConfig, name: extraName },
      status: statusOf(extraReasons),
      testTime: 0,
      responseTimeMs: 0,
      balance: 0,
      balanceUpdatedTime: 0,
      usedQuota: 0,
    };
  });

  return { channel: facts, extraChannels, items };
}
