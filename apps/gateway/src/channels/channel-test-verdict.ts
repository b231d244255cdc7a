import { ChannelStatus } from '@tollgate/contracts';
import { disableReason } from '@tollgate/relay';
import { translate, type Lang } from '../shared/i18n/messages';
import type { TestOutcome } from './channel-upstream';

/** The monitoring options a test result is judged by (ChannelSettings reads them live). */
export interface TestRules {
  /** AutomaticDisableChannelEnabled. */
  readonly autoDisable: boolean;
  /** AutomaticEnableChannelEnabled. */
  readonly autoEnable: boolean;
  /** ChannelDisableThreshold in ms; 0 = no limit. */
  readonly disableThresholdMs: number;
  /** AutomaticDisableKeywords, one per line in the option. */
  readonly disableKeywords: readonly string[];
}

export interface TestVerdict {
  readonly success: boolean;
  /** '' on success; the provider's error, or why a slow answer counts as failed. */
  readonly message: string;
  /** What the system does to the channel: nothing, disable it (status 3) or bring it back. */
  readonly action?:
    | { readonly kind: 'disable'; readonly reason: string; readonly model?: string }
    | { readonly kind: 'enable' };
}

/**
 * A channel test's verdict (docs/channels.md, "Status"): a failure the relay would disable on (the
 * same rules and keyword option), or an answer slower than ChannelDisableThreshold, disables an
 * auto-ban channel when AutomaticDisableChannelEnabled; a passing test brings back a channel the
 * system disabled (status 3, never an admin's 2) when AutomaticEnableChannelEnabled.
 */
export function judgeTest(
  outcome: TestOutcome,
  channel: { readonly type: number; readonly autoBan: boolean; readonly status: number },
  rules: TestRules,
  /** Of whoever asked (the scheduled run: zh-CN); the texts are answered and recorded. */
  lang: Lang = 'zh-CN',
  /** The model tested: a disable names it (the channel alert shows it). */
  model?: string,
): TestVerdict {
  const mayDisable = rules.autoDisable && channel.autoBan;
  const failed = (detail: string) => translate('channel.test_failed', { detail }, lang);
  const disable = (reason: string) =>
    ({ kind: 'disable', reason, ...(model ? { model } : {}) }) as const;
  if (!outcome.ok) {
    const reason = disableReason(outcome.failure, channel.type, rules.disableKeywords);
    return {
      success: false,
      message: outcome.failure.message,
      ...(mayDisable && reason !== undefined ? { action: disable(failed(reason)) } : {}),
    };
  }
  const threshold = rules.disableThresholdMs;
  if (threshold > 0 && outcome.elapsedMs > threshold) {
    const message = translate(
      'channel.test_too_slow',
      { elapsed: (outcome.elapsedMs / 1000).toFixed(2), threshold: threshold / 1000 },
      lang,
    );
    return {
      success: false,
      message,
      ...(mayDisable ? { action: disable(failed(message)) } : {}),
    };
  }
  return {
    success: true,
    message: '',
    ...(channel.status === ChannelStatus.AutoDisabled && rules.autoEnable
      ? { action: { kind: 'enable' } }
      : {}),
  };
}
