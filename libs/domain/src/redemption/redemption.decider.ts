import {
  REDEMPTION_NAME_MAX_LENGTH,
  REDEMPTION_STATUSES,
  RedemptionStatus,
} from '@tollgate/contracts';
import type { Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { SealedSecret } from '../options/options.events';
import type { RedemptionEvent, RedemptionImported } from './redemption.events';

export interface RedemptionState {
  readonly exists: boolean;
  readonly deleted: boolean;
  readonly redemptionId: number;
  readonly name: string;
  readonly quota: number;
  readonly status: number;
  readonly keyHash: string;
}

export const initialRedemptionState: RedemptionState = {
  exists: false,
  deleted: false,
  redemptionId: 0,
  name: '',
  quota: 0,
  status: 0,
  keyHash: '',
};

export type RedemptionCommand =
  | {
      readonly type: 'CreateRedemption';
      readonly redemptionId: number;
      readonly createdBy: number;
      readonly name: string;
      readonly quota: number;
      readonly sealedKey: SealedSecret;
      readonly keyHash: string;
    }
  | {
      readonly type: 'UpdateRedemption';
      readonly redemptionId: number;
      readonly name: string;
      readonly quota: number;
    }
  | {
      readonly type: 'ChangeRedemptionStatus';
      readonly redemptionId: number;
      readonly status: number;
    }
  | { readonly type: 'RedeemCode'; readonly userId: number }
  /** The importer's: the whole code; a stream already holding it decides nothing. */
  | { readonly type: 'ImportRedemption'; readonly redemption: RedemptionImported['data'] }
  | { readonly type: 'DeleteRedemption'; readonly redemptionId: number };

export function evolveRedemption(state: RedemptionState, event: RedemptionEvent): RedemptionState {
  switch (event.type) {
    case 'RedemptionCreated':
      return {
        exists: true,
        deleted: false,
        redemptionId: event.data.redemptionId,
        name: event.data.name,
        quota: event.data.quota,
        status: RedemptionStatus.Unused,
        keyHash: event.data.keyHash,
      };
    case 'RedemptionUpdated':
      return { ...state, name: event.data.name, quota: event.data.quota };
    case 'RedemptionStatusChanged':
      return { ...state, status: event.data.to };
    case 'RedemptionRedeemed':
      return { ...state, status: RedemptionStatus.Used };
    case 'RedemptionDeleted':
      return { ...state, deleted: true };
    case 'RedemptionImported':
      return {
        exists: true,
        deleted: event.data.deleted,
        redemptionId: event.data.redemptionId,
        name: event.data.name,
        quota: event.data.quota,
        status: event.data.status,
        keyHash: event.data.keyHash,
      };
  }
}

/** Name 1..20 characters (trimmed), quota an integer > 0. */
export function assertRedemptionFields(name: string, quota: number): string {
  const trimmed = name.trim();
  if (!trimmed) throw new DomainError('redemption.name_required');
  if ([...trimmed].length > REDEMPTION_NAME_MAX_LENGTH)
    throw new DomainError('redemption.name_too_long');
  if (!Number.isSafeInteger(quota) || quota <= 0) throw new DomainError('redemption.quota_invalid');
  return trimmed;
}

function assertExists(state: RedemptionState): void {
  if (!state.exists || state.deleted) throw new DomainError('redemption.not_found');
}

export const redemptionDecider: Decider<RedemptionCommand, RedemptionState, RedemptionEvent> = {
  initialState: initialRedemptionState,
  evolve: evolveRedemption,
  decide(command, state, { now }) {
    const seconds = Math.floor(now.getTime() / 1000);
    switch (command.type) {
      case 'CreateRedemption': {
        if (state.exists) throw new DomainError('redemption.already_exists');
        const name = assertRedemptionFields(command.name, command.quota);
        return [
          {
            type: 'RedemptionCreated',
            data: {
              redemptionId: command.redemptionId,
              createdBy: command.createdBy,
              name,
              quota: command.quota,
              sealedKey: command.sealedKey,
              keyHash: command.keyHash,
              createdTime: seconds,
            },
          },
        ];
      }
      case 'ImportRedemption': {
        const r = command.redemption;
        if (state.exists && state.redemptionId === r.redemptionId) return [];
        if (state.exists) throw new DomainError('redemption.already_exists');
        if (!REDEMPTION_STATUSES.includes(r.status))
          throw new DomainError('redemption.status_invalid');
        if (!Number.isSafeInteger(r.quota) || r.quota < 0)
          throw new DomainError('redemption.quota_invalid');
        if (!r.keyHash) throw new DomainError('redemption.key_required');
        return [{ type: 'RedemptionImported', data: r }];
      }
      case 'UpdateRedemption': {
        assertExists(state);
        if (state.status !== RedemptionStatus.Unused)
          throw new DomainError('redemption.not_editable');
        const name = assertRedemptionFields(command.name, command.quota);
        if (name === state.name && command.quota === state.quota) return [];
        return [
          {
            type: 'RedemptionUpdated',
            data: { redemptionId: state.redemptionId, name, quota: command.quota },
          },
        ];
      }
      case 'ChangeRedemptionStatus': {
        assertExists(state);
        if (
          command.status !== RedemptionStatus.Unused &&
          command.status !== RedemptionStatus.Disabled
        )
          throw new DomainError('redemption.status_invalid');
        if (state.status === RedemptionStatus.Used)
          throw new DomainError('redemption.already_used');
        if (state.status === command.status) return [];
        return [
          {
            type: 'RedemptionStatusChanged',
            data: { redemptionId: state.redemptionId, from: state.status, to: command.status },
          },
        ];
      }
      case 'RedeemCode':
        if (!state.exists || state.deleted) throw new DomainError('redemption.invalid_code');
        if (state.status === RedemptionStatus.Used)
          throw new DomainError('redemption.already_used');
        if (state.status !== RedemptionStatus.Unused) throw new DomainError('redemption.disabled');
        return [
          {
            type: 'RedemptionRedeemed',
            data: {
              redemptionId: state.redemptionId,
              userId: command.userId,
              quota: state.quota,
              redeemedTime: seconds,
            },
          },
        ];
      case 'DeleteRedemption':
        assertExists(state);
        return [
          {
            type: 'RedemptionDeleted',
            data: { redemptionId: state.redemptionId, keyHash: state.keyHash },
          },
        ];
    }
  },
};
