import { ChannelStatus } from '@tollgate/contracts';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type {
  ChannelCommand,
  CopyChannel,
  CreateChannel,
  DisableChannelAutomatically,
  ImportChannel,
  RecordChannelBalance,
  RecordChannelTest,
  UpdateChannel,
} from './channel.commands';
import type { ChannelConfig, ChannelEvent } from './channel.events';
import {
  assertValidChannelKey,
  normalizeChannelConfig,
  normalizeImportedChannelConfig,
  retargetsKey,
} from './channel.rules';
import {
  EMPTY_CHANNEL_CONFIG,
  evolveChannel,
  initialChannelState,
  type ChannelState,
} from './channel.state';

/** Reasons and provider messages are kept short: they end up in tooltips and the log. */
const MAX_MESSAGE = 500;
const clip = (text: string) => (text.length > MAX_MESSAGE ? text.slice(0, MAX_MESSAGE) : text);

const seconds = (now: Date) => Math.floor(now.getTime() / 1000);

function assertLive(state: ChannelState): void {
  if (!state.exists || state.deleted) throw new DomainError('channel.not_found');
}

/** The fields of `next` that differ from `current`. */
function diff(current: ChannelConfig, next: ChannelConfig): Partial<ChannelConfig> {
  const changes: Record<string, unknown> = {};
  for (const field of Object.keys(next) as Array<keyof ChannelConfig>) {
    if (JSON.stringify(current[field]) !== JSON.stringify(next[field]))
      changes[field] = next[field];
  }
  return changes;
}

/** Each command is decided by its own function below; the switch only dispatches. */
export const channelDecider: Decider<ChannelCommand, ChannelState, ChannelEvent> = {
  initialState: initialChannelState,
  evolve: evolveChannel,
  decide(command, state, { now }) {
    switch (command.type) {
      case 'CreateChannel':
        return decideCreate(command, state, now);
      case 'ImportChannel':
        return decideImport(command, state);
      case 'UpdateChannel':
        return decideUpdate(command, state, now);
      case 'CopyChannel':
        return decideCopy(command, state, now);
      case 'DeleteChannel':
        assertLive(state);
        return [{ type: 'ChannelDeleted', data: { channelId: state.channelId } }];
      case 'DisableChannelAutomatically':
        return decideAutoDisable(command, state, now);
      case 'EnableChannelAutomatically':
        return decideAutoEnable(state, now);
      case 'RecordChannelTest':
        return decideTestRecord(command, state, now);
      case 'RecordChannelBalance':
        return decideBalanceRecord(command, state, now);
    }
  },
};

function decideCreate(command: CreateChannel, state: ChannelState, now: Date): ChannelEvent[] {
  if (state.exists) throw new DomainError('channel.already_exists');
  const config = normalizeChannelConfig({ ...EMPTY_CHANNEL_CONFIG, ...command.config });
  assertValidChannelKey(config.type, command.key);
  if (
    command.status !== undefined &&
    command.status !== ChannelStatus.Enabled &&
    command.status !== ChannelStatus.ManuallyDisabled
  )
    throw new DomainError('channel.status_invalid');
  return [
    {
      type: 'ChannelCreated',
      data: {
        channelId: command.channelId,
        config,
        key: command.sealedKey,
        status:
          command.status === ChannelStatus.ManuallyDisabled
            ? ChannelStatus.ManuallyDisabled
            : ChannelStatus.Enabled,
        createdTime: seconds(now),
      },
    },
  ];
}

function decideImport(command: ImportChannel, state: ChannelState): ChannelEvent[] {
  const c = command.channel;
  // Already taken over (a repeated or resumed import): nothing to decide.
  if (state.exists && state.channelId === c.channelId) return [];
  if (state.exists) throw new DomainError('channel.already_exists');
  if (!Number.isSafeInteger(c.channelId) || c.channelId <= 0)
    throw new DomainError('channel.not_found');
  if (
    c.status !== ChannelStatus.Enabled &&
    c.status !== ChannelStatus.ManuallyDisabled &&
    c.status !== ChannelStatus.AutoDisabled
  )
    throw new DomainError('channel.status_invalid');
  if (!Number.isSafeInteger(c.usedQuota) || c.usedQuota < 0)
    throw new DomainError('channel.balance_invalid');
  if (!Number.isFinite(c.balance)) throw new DomainError('channel.balance_invalid');
  const config = normalizeImportedChannelConfig({ ...EMPTY_CHANNEL_CONFIG, ...c.config }, c.status);
  return [{ type: 'ChannelImported', data: { ...c, config } }];
}

/** A config change (with or without a new key) and a status change are two events. */
function decideUpdate(command: UpdateChannel, state: ChannelState, now: Date): ChannelEvent[] {
  assertLive(state);
  const config = normalizeChannelConfig({ ...state.config, ...command.changes });
  const replaceKey = command.key !== undefined && command.key.trim() !== '';
  if (!replaceKey && !command.mayRetargetStoredKey && retargetsKey(state.config, config))
    throw new DomainError('channel.key_required_for_target_change');
  if (replaceKey) assertValidChannelKey(config.type, command.key);
  else if (config.type !== state.config.type)
    // The stored key was checked against the old type's format.
    throw new DomainError('channel.key_required_for_type_change');
  // The edit form sends the record back whole: its unchanged status (even 3) is no request.
  const status = command.status === state.status ? undefined : command.status;
  if (
    status !== undefined &&
    status !== ChannelStatus.Enabled &&
    status !== ChannelStatus.ManuallyDisabled
  )
    throw new DomainError('channel.status_invalid');
  const events: ChannelEvent[] = [];
  const changes = diff(state.config, config);
  const keyChanged = replaceKey && command.sealedKey!.hash !== state.key.hash;
  if (Object.keys(changes).length > 0 || keyChanged)
    events.push({
      type: 'ChannelUpdated',
      data: {
        channelId: state.channelId,
        changes,
        ...(keyChanged ? { key: command.sealedKey! } : {}),
      },
    });
  if (status !== undefined)
    events.push({
      type: 'ChannelStatusChanged',
      data: {
        channelId: state.channelId,
        from: state.status,
        to: status,
        reason: '',
        time: seconds(now),
      },
    });
  return events;
}

function decideCopy(command: CopyChannel, state: ChannelState, now: Date): ChannelEvent[] {
  if (state.exists) throw new DomainError('channel.already_exists');
  const source = command.source;
  assertLive(source);
  const events: ChannelEvent[] = [
    {
      type: 'ChannelCreated',
      data: {
        channelId: command.channelId,
        config: { ...source.config, name: `${source.config.name}${command.suffix}` },
        key: source.key,
        // A copy of a disabled channel stays disabled, but by hand: nothing re-enables it.
        status:
          source.status === ChannelStatus.Enabled
            ? ChannelStatus.Enabled
            : ChannelStatus.ManuallyDisabled,
        createdTime: seconds(now),
        copiedFrom: source.channelId,
      },
    },
  ];
  if (!command.resetBalance && source.balanceUpdatedTime > 0)
    events.push({
      type: 'ChannelBalanceUpdated',
      data: {
        channelId: command.channelId,
        balance: source.balance,
        updatedTime: source.balanceUpdatedTime,
      },
    });
  return events;
}

/** Only an enabled channel is disabled automatically; anything else decides nothing. */
function decideAutoDisable(
  command: DisableChannelAutomatically,
  state: ChannelState,
  now: Date,
): ChannelEvent[] {
  if (!state.exists || state.deleted || state.status !== ChannelStatus.Enabled) return [];
  return [
    {
      type: 'ChannelStatusChanged',
      data: {
        channelId: state.channelId,
        from: state.status,
        to: ChannelStatus.AutoDisabled,
        reason: clip(command.reason),
        time: seconds(now),
        ...(command.model ? { model: command.model.slice(0, 200) } : {}),
      },
    },
  ];
}

/** Only a channel the system disabled comes back by itself. */
function decideAutoEnable(state: ChannelState, now: Date): ChannelEvent[] {
  if (!state.exists || state.deleted || state.status !== ChannelStatus.AutoDisabled) return [];
  return [
    {
      type: 'ChannelStatusChanged',
      data: {
        channelId: state.channelId,
        from: state.status,
        to: ChannelStatus.Enabled,
        reason: '',
        time: seconds(now),
      },
    },
  ];
}

function decideTestRecord(
  command: RecordChannelTest,
  state: ChannelState,
  now: Date,
): ChannelEvent[] {
  assertLive(state);
  return [
    {
      type: 'ChannelTested',
      data: {
        channelId: state.channelId,
        model: command.model,
        success: command.success,
        responseTimeMs: Math.max(0, Math.round(command.responseTimeMs)),
        message: clip(command.message),
        testTime: seconds(now),
        ...(!command.success && command.status ? { status: command.status } : {}),
      },
    },
  ];
}

function decideBalanceRecord(
  command: RecordChannelBalance,
  state: ChannelState,
  now: Date,
): ChannelEvent[] {
  assertLive(state);
  if (!Number.isFinite(command.balance)) throw new DomainError('channel.balance_invalid');
  return [
    {
      type: 'ChannelBalanceUpdated',
      data: { channelId: state.channelId, balance: command.balance, updatedTime: seconds(now) },
    },
  ];
}
