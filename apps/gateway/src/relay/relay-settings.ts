import { Inject, Injectable } from '@nestjs/common';
import type { PriceOptions } from '@tollgate/domain';
import {
  DEFAULT_RETRY_STATUS_RANGES,
  type FallbackSwitches,
  parseModelFallbacks,
  parseKeywords,
  parseProviderSettings,
  parseStatusRanges,
  type ProviderSettings,
  SensitiveMatcher,
  type StatusRanges,
  type UserRequestLimits,
  ROUTING_STRATEGIES,
  type RoutingStrategy,
} from '@tollgate/relay';
import { OptionsCache } from '../options/options.cache';
import { numberMap, stringMap } from '../options/option-maps';

/** The options the relay reads, parsed: a request never parses option JSON. */
export interface RelaySettings {
  readonly price: PriceOptions;
  /** ModelMaxOutputTokens: the ceiling of a request that sets none (see modelMaxOutput). */
  readonly maxOutput: Readonly<Record<string, number>>;
  readonly retryTimes: number;
  readonly retryRanges: StatusRanges;
  readonly autoDisable: boolean;
  readonly disableKeywords: readonly string[];
  readonly usableGroups: Readonly<Record<string, string>>;
  readonly userLimits: UserRequestLimits;
  readonly failureBudget: { readonly count: number; readonly windowMs: number };
  /** How a priority tier shares traffic (RoutingStrategy). */
  readonly routingStrategy: RoutingStrategy;
  /** ModelFallbacks: model → the models tried in order once every channel of it failed. */
  readonly modelFallbacks: ReadonlyMap<string, readonly string[]>;
  /** ModelFallbackOnContextWindow / …OnContentFilter, with the retry statuses. */
  readonly fallbackSwitches: FallbackSwitches;
  readonly displayInCurrency: boolean;
  readonly displayTokenStat: boolean;
  /** ErrorLogEnabled: a failed call becomes a RequestFailed event (an error log row). */
  readonly errorLog: boolean;
  readonly sensitive: SensitiveSettings;
  readonly permissions: RelayPermissions;
  /** new-api's `claude.*`, `gemini.*` and `global.pass_through_request_enabled`, for the adaptors. */
  readonly providers: ProviderSettings;
}

/** The option keys of the providers' settings (provider-settings.ts in the relay library). */
const PROVIDER_KEYS = [
  'claude.model_headers_settings',
  'claude.default_max_tokens',
  'claude.thinking_adapter_enabled',
  'claude.thinking_adapter_budget_tokens_percentage',
  'gemini.safety_settings',
  'gemini.version_settings',
  'global.pass_through_request_enabled',
] as const;

/** The sensitive-word check (CheckSensitive*, StopOnSensitiveEnabled, StreamCacheQueueLength). */
export interface SensitiveSettings {
  /** Undefined when the check is off or the list is empty: the relay scans nothing. */
  readonly prompt: SensitiveMatcher | undefined;
  readonly output: SensitiveMatcher | undefined;
  readonly streamQueue: number;
}

/** new-api's role thresholds for uploads and downloads through the relay (0 = everyone). */
export interface RelayPermissions {
  readonly fileUpload: number;
  readonly fileDownload: number;
  readonly imageUpload: number;
  readonly imageDownload: number;
}

const KEYS = [
  'ModelRatio',
  'CompletionRatio',
  'ModelMaxOutputTokens',
  'ModelPrice',
  'GroupRatio',
  'CacheRatio',
  'CacheCreationRatio',
  'SelfUseModeEnabled',
  'PreConsumedQuota',
  'QuotaPerUnit',
  'RetryTimes',
  'AutomaticRetryStatusCodes',
  'AutomaticDisableChannelEnabled',
  'AutomaticDisableKeywords',
  'UserUsableGroups',
  'ModelRequestRateLimitEnabled',
  'ModelRequestRateLimitDurationMinutes',
  'ModelRequestRateLimitCount',
  'ModelRequestRateLimitSuccessCount',
  'ChannelFailureBudgetCount',
  'ChannelFailureBudgetWindowSeconds',
  'RoutingStrategy',
  'ModelFallbacks',
  'ModelFallbackOnContextWindow',
  'ModelFallbackOnContentFilter',
  'DisplayInCurrencyEnabled',
  'DisplayTokenStatEnabled',
  'ErrorLogEnabled',
  'CheckSensitiveEnabled',
  'CheckSensitiveOnPromptEnabled',
  'StopOnSensitiveEnabled',
  'SensitiveWords',
  'StreamCacheQueueLength',
  'FileUploadPermission',
  'FileDownloadPermission',
  'ImageUploadPermission',
  'ImageDownloadPermission',
  ...PROVIDER_KEYS,
] as const;

/** Resolves the app's OptionsCache (provided by the app module, not owned by the relay). */
export const RELAY_OPTIONS_SOURCE = Symbol('RELAY_OPTIONS_SOURCE');
export type OptionsSource = () => OptionsCache;

/**
 * The relay's view of the options: re-parsed only when one of its raw values changed (identity of
 * the cached strings), so the per-request cost is a few string comparisons.
 */
@Injectable()
export class RelaySettingsView {
  private raw: string[] = [];
  private settings: RelaySettings | undefined;
  private cache: OptionsCache | undefined;

  constructor(@Inject(RELAY_OPTIONS_SOURCE) private readonly source: OptionsSource) {}

  private get options(): OptionsCache {
    return (this.cache ??= this.source());
  }

  current(): RelaySettings {
    if (this.settings && !this.changed()) return this.settings;
    this.raw = KEYS.map((k) => this.options.get(k));
    this.settings = this.parse();
    return this.settings;
  }

  /** Whether a raw value differs from the parsed one's: a loop, nothing allocated per request. */
  private changed(): boolean {
    const o = this.options;
    for (let i = 0; i < KEYS.length; i++) if (o.get(KEYS[i]!) !== this.raw[i]) return true;
    return false;
  }

  private parse(): RelaySettings {
    const o = this.options;
    const int = (key: string, min = 0): number => Math.max(min, Math.floor(o.number(key)));
    const retryRanges = parseStatusRanges(
      o.get('AutomaticRetryStatusCodes') || DEFAULT_RETRY_STATUS_RANGES,
    );
    return {
      price: {
        modelRatio: numberMap(o.get('ModelRatio')),
        completionRatio: numberMap(o.get('CompletionRatio')),
        modelPrice: numberMap(o.get('ModelPrice')),
        groupRatio: numberMap(o.get('GroupRatio')),
        cacheRatio: numberMap(o.get('CacheRatio')),
        cacheCreationRatio: numberMap(o.get('CacheCreationRatio')),
        selfUseMode: o.bool('SelfUseModeEnabled'),
        preConsumedQuota: int('PreConsumedQuota'),
        quotaPerUnit: o.number('QuotaPerUnit') > 0 ? o.number('QuotaPerUnit') : 500000,
      },
      maxOutput: numberMap(o.get('ModelMaxOutputTokens')),
      retryTimes: int('RetryTimes'),
      retryRanges,
      autoDisable: o.bool('AutomaticDisableChannelEnabled'),
      disableKeywords: parseKeywords(o.get('AutomaticDisableKeywords')),
      usableGroups: stringMap(o.get('UserUsableGroups')),
      userLimits: {
        enabled: o.bool('ModelRequestRateLimitEnabled'),
        durationMinutes: int('ModelRequestRateLimitDurationMinutes', 1),
        totalCount: int('ModelRequestRateLimitCount'),
        successCount: int('ModelRequestRateLimitSuccessCount'),
      },
      failureBudget: {
        count: int('ChannelFailureBudgetCount'),
        windowMs: int('ChannelFailureBudgetWindowSeconds', 1) * 1000,
      },
      routingStrategy: routingStrategyOf(o.get('RoutingStrategy')),
      modelFallbacks: parseModelFallbacks(o.get('ModelFallbacks')),
      fallbackSwitches: {
        onContextWindow: o.bool('ModelFallbackOnContextWindow'),
        onContentFilter: o.bool('ModelFallbackOnContentFilter'),
        ranges: retryRanges,
      },
      displayInCurrency: o.bool('DisplayInCurrencyEnabled'),
      displayTokenStat: o.bool('DisplayTokenStatEnabled'),
      errorLog: o.bool('ErrorLogEnabled'),
      sensitive: this.sensitive(),
      permissions: {
        fileUpload: int('FileUploadPermission'),
        fileDownload: int('FileDownloadPermission'),
        imageUpload: int('ImageUploadPermission'),
        imageDownload: int('ImageDownloadPermission'),
      },
      providers: parseProviderSettings(
        Object.fromEntries(PROVIDER_KEYS.map((key) => [key, o.get(key)])),
      ),
    };
  }

  /** The matcher is rebuilt only when the word list changed (not on every relay option change). */
  private matcherWords = '';
  private matcher: SensitiveMatcher | undefined;

  private sensitive(): SensitiveSettings {
    const o = this.options;
    const words = o.get('SensitiveWords');
    if (words !== this.matcherWords) {
      this.matcherWords = words;
      this.matcher = SensitiveMatcher.of(words);
    }
    const on = o.bool('CheckSensitiveEnabled');
    return {
      prompt: on && o.bool('CheckSensitiveOnPromptEnabled') ? this.matcher : undefined,
      output: on && o.bool('StopOnSensitiveEnabled') ? this.matcher : undefined,
      streamQueue: Math.max(0, Math.floor(o.number('StreamCacheQueueLength'))),
    };
  }
}

/** The option's value; anything else (an older file, a hand edit) means today's default. */
function routingStrategyOf(value: string): RoutingStrategy {
  return ROUTING_STRATEGIES.find((strategy) => strategy === value) ?? 'weighted';
}
