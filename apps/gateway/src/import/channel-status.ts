import {
  CHANNEL_STATUSES,
  ChannelStatus,
  channelTypeInfo,
  isValidChannelKey,
  type ChannelStatusValue,
} from '@tollgate/contracts';
import { DomainError, normalizeImportedChannelConfig, type ChannelConfig } from '@tollgate/domain';
import { channelKeySecrets, SecretScrubber } from '@tollgate/relay';
import { translate } from '../shared/i18n/messages';
import { isSupportedChannelType } from './channel-type-routing';
import type { ChannelRowNotes } from './row-notes';
import type { SourceProject } from './source-database';
import { int, parseObject, text } from './row-values';

/** The status the source gave the row, with the reason and time of an automatic disable. */
export interface SourceStatus {
  readonly status: ChannelStatusValue;
  readonly statusReason: string;
  readonly statusTime: number;
}

/**
 * The row's status (an unknown one comes in disabled by hand), its reason from new-api's
 * other_info when disabled automatically. The source kept the provider's error as it came: a key
 * it quotes is masked before the event.
 */
export function sourceStatusOf(
  project: SourceProject,
  row: Readonly<Record<string, unknown>>,
  type: number,
  keys: readonly string[],
  notes: ChannelRowNotes,
): SourceStatus {
  let status = int(row['status']);
  if (!CHANNEL_STATUSES.includes(status)) {
    notes.changed('status', `unknown status ${status}: imported as disabled`);
    status = ChannelStatus.ManuallyDisabled;
  }
  const info = parseObject(text(row['other_info'])) ?? {};
  const keySecrets = SecretScrubber.of(keys.flatMap((k) => channelKeySecrets(type, k)));
  const autoDisabled = status === ChannelStatus.AutoDisabled;
  let statusReason = autoDisabled ? keySecrets.text(text(info['status_reason'])) : '';
  if (autoDisabled && statusReason === '') statusReason = `disabled automatically in ${project}`;
  return {
    status: status as ChannelStatusValue,
    statusReason,
    statusTime: Math.max(0, int(info['status_time'])),
  };
}

/** Whether the channel of each key may come in enabled, and how the report says it. */
export interface ChannelEnablement {
  /** Why the channel of key `k` cannot be enabled (empty: it can). */
  reasonsFor(k: string): string[];
  statusOf(reasons: readonly string[]): ChannelStatusValue;
  verdict(reasons: readonly string[]): string;
}

/**
 * The row's reasons to come in disabled, checked per key (each key is a channel) at the place
 * `keyReasonAt` among them; the console's rules on the configuration are checked once, when
 * nothing else disables the channel.
 */
export function channelEnablement(
  type: number,
  status: ChannelStatusValue,
  config: ChannelConfig,
  notes: ChannelRowNotes,
  keyReasonAt: number,
): ChannelEnablement {
  const disable = [...notes.disable];
  const enabled = status === ChannelStatus.Enabled;
  const configProblem = enabled && disable.length === 0 ? configProblemOf(config) : null;
  return {
    reasonsFor(k) {
      const problem = keyProblem(type, k);
      const reasons = disable.slice(0, keyReasonAt);
      if (problem !== null) reasons.push(problem);
      reasons.push(...disable.slice(keyReasonAt));
      if (reasons.length === 0 && configProblem !== null) reasons.push(configProblem);
      return reasons;
    },
    statusOf: (reasons) =>
      reasons.length > 0 && enabled ? ChannelStatus.ManuallyDisabled : status,
    verdict: (reasons) =>
      `${enabled ? 'imported disabled' : 'stays disabled'}: ${reasons.join('; ')}`,
  };
}

function keyProblem(type: number, k: string): string | null {
  if (k === '') return 'the key is empty';
  if (isSupportedChannelType(type) && !isValidChannelKey(type, k))
    return `the key is not in the ${channelTypeInfo(type)?.keyFormat ?? 'api_key'} format`;
  return null;
}

function configProblemOf(config: ChannelConfig): string | null {
  try {
    normalizeImportedChannelConfig(config, ChannelStatus.Enabled);
    return null;
  } catch (error) {
    if (!(error instanceof DomainError)) throw error;
    return translate(error.code, error.params, 'en');
  }
}
