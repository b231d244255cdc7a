import { disableReason } from '@tollgate/relay';
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
    { readonly kind: 'disable'; readonly reason: string } | { readonly kind: 'enable' };
}

/**
 * RELAY-NOTES §4.4, test path: a failure the relay would disable on (the same rules and keyword
 * option), or an answer slower than ChannelDisableThreshold, disables an auto-ban channel when
 * AutomaticDisableChannelEnabled; a passing test brings back a channel the system disabled
 * (status 3, never an admin's 2) when AutomaticEnableChannelEnabled.
 */
export function judgeTest(
  outcome: TestOutcome,
  channel: { readonly type: number; readonly autoBan: boolean; readonly status: number },
  rules: TestRules,
): TestVerdict {
  const mayDisable = rules.autoDisable && channel.autoBan;
  if (!outcome.ok) {
    const reason = disableReason(outcome.failure, channel.type, rules.disableKeywords);
    return {
      success: false,
      message: outcome.failure.message,
      ...(mayDisable && reason !== undefined
        ? { action: { kind: 'disable', reason: `测试失败：${reason}` } }
        : {}),
    };
  }
  const threshold = rules.disableThresholdMs;
  if (threshold > 0 && outcome.elapsedMs > threshold) {
    const message = `响应时间 ${(outcome.elapsedMs / 1000).toFixed(2)}s 超过阈值 ${threshold / 1000}s`;
    return {
      success: false,
      message,
      ...(mayDisable ? { action: { kind: 'disable', reason: `测试失败：${message}` } } : {}),
    };
  }
  return {
    success: true,
    message: '',
    ...(channel.status === 3 && rules.autoEnable ? { action: { kind: 'enable' } } : {}),
  };
}
