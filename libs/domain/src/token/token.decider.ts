import { TOKEN_STATUSES, TokenStatus } from '@tollgate/contracts';
import {
  decideLease,
  evolveWithLeases,
  isLeaseCommand,
  type LeaseCommand,
  type LeaseEvent,
  type LeaseState,
} from '../billing/balance-lease';
import type { DecideContext, Decider } from '../shared/decider';
import { DomainError } from '../shared/domain-error';
import type { SealedSecret } from '../options/options.events';
import type { TokenEvent, TokenImported, TokenSettings } from './token.events';
import { toTokenSettings, type TokenInput } from './token.rules';

export interface TokenState extends LeaseState {
  readonly exists: boolean;
  readonly deleted: boolean;
  readonly tokenId: number;
  readonly userId: number;
  readonly status: number;
  readonly keyHash: string;
  readonly settings: TokenSettings | null;
}

export const initialTokenState: TokenState = {
  exists: false,
  deleted: false,
  tokenId: 0,
  userId: 0,
  status: 0,
  keyHash: '',
  settings: null,
};

export type TokenCommand =
  /** Scale-out: leases on a limited token's quota (the account is the token's, whatever is sent). */
  | LeaseCommand
  | {
      readonly type: 'CreateToken';
      readonly tokenId: number;
      readonly userId: number;
      readonly sealedKey: SealedSecret;
      readonly keyHash: string;
      readonly input: TokenInput;
      readonly allowedGroups: readonly string[];
    }
  | {
      readonly type: 'UpdateToken';
      readonly tokenId: number;
      /** The signed-in owner: anyone else gets "not found". */
      readonly userId: number;
      readonly input: TokenInput;
      readonly allowedGroups: readonly string[];
    }
  | {
      readonly type: 'ChangeTokenStatus';
      readonly tokenId: number;
      readonly userId: number;
      readonly status: number;
      /** Quota left now (the balance book's: charges included); Infinity when unlimited. */
      readonly remaining: number;
    }
  | { readonly type: 'DeleteToken'; readonly tokenId: number; readonly userId: number }
  /** Takes a one-api / new-api token over as it was; a second time, nothing. */
  | { readonly type: 'ImportToken'; readonly token: TokenImported['data'] }
  | { readonly type: 'MarkTokenExpired'; readonly tokenId: number }
  | { readonly type: 'MarkTokenExhausted'; readonly tokenId: number };

/** Every event of a `token-<id>` stream. */
export type TokenStreamEvent = TokenEvent | LeaseEvent;

export function evolveToken(state: TokenState, event: TokenStreamEvent): TokenState {
  return evolveWithLeases(state, event, evolveSettings);
}

function evolveSettings(state: TokenState, event: TokenEvent): TokenState {
  switch (event.type) {
    case 'TokenCreated': {
      const { tokenId, userId, sealedKey: _k, keyHash, createdTime: _t, ...settings } = event.data;
      return {
        ...state,
        exists: true,
        deleted: false,
        tokenId,
        userId,
        status: TokenStatus.Enabled,
        keyHash,
        settings,
      };
    }
    case 'TokenUpdated': {
      // A new cap: every lease on the old one ends with it (the holders lease from the new cap).
      const { tokenId: _i, userId: _u, ...settings } = event.data;
      return { ...state, settings, leases: {} };
    }
    case 'TokenImported': {
      const {
        tokenId,
        userId,
        sealedKey: _k,
        keyHash,
        createdTime: _t,
        status,
        usedQuota: _used,
        deleted,
        source: _source,
        ...settings
      } = event.data;
      return { ...state, exists: true, deleted, tokenId, userId, status, keyHash, settings };
    }
    case 'TokenStatusChanged':
      return { ...state, status: event.data.to };
    case 'TokenDeleted':
      return { ...state, deleted: true, leases: {} };
  }
}

/** A token the caller may act on: it exists, is not deleted and is theirs. */
function assertOwned(state: TokenState, userId: number | null): TokenSettings {
  if (!state.exists || state.deleted || !state.settings) throw new DomainError('token.not_found');
  if (userId !== null && state.userId !== userId) throw new DomainError('token.not_found');
  return state.settings;
}

export const tokenDecider: Decider<TokenCommand, TokenState, TokenStreamEvent> = {
  initialState: initialTokenState,
  evolve: evolveToken,
  // 2: the state counts its events (version) and holds the open leases.
  snapshotVersion: 2,
  decide(command, state, context) {
    if (isLeaseCommand(command)) return decideTokenLease(command, state, context);
    const { now } = context;
    switch (command.type) {
      case 'CreateToken': {
        if (state.exists) throw new DomainError('token.already_exists');
        const settings = toTokenSettings(command.input, now, command.allowedGroups);
        return [
          {
            type: 'TokenCreated',
            data: {
              tokenId: command.tokenId,
              userId: command.userId,
              sealedKey: command.sealedKey,
              keyHash: command.keyHash,
              createdTime: Math.floor(now.getTime() / 1000),
              ...settings,
            },
          },
        ];
      }
      case 'ImportToken': {
        const t = command.token;
        if (state.exists && state.tokenId === t.tokenId) return [];
        if (state.exists) throw new DomainError('token.already_exists');
        if (!TOKEN_STATUSES.includes(t.status) || !Number.isSafeInteger(t.usedQuota))
          throw new DomainError('token.status_invalid');
        return [{ type: 'TokenImported', data: t }];
      }
      case 'UpdateToken': {
        assertOwned(state, command.userId);
        const settings = toTokenSettings(command.input, now, command.allowedGroups);
        return [
          {
            type: 'TokenUpdated',
            data: { tokenId: state.tokenId, userId: state.userId, ...settings },
          },
        ];
      }
      case 'ChangeTokenStatus': {
        const settings = assertOwned(state, command.userId);
        if (command.status !== TokenStatus.Enabled && command.status !== TokenStatus.Disabled)
          throw new DomainError('token.status_invalid');
        if (command.status === state.status) return [];
        if (command.status === TokenStatus.Enabled) {
          const nowSeconds = Math.floor(now.getTime() / 1000);
          if (settings.expiredTime !== -1 && settings.expiredTime <= nowSeconds)
            throw new DomainError('token.expired_extend_first');
          if (!settings.unlimitedQuota && command.remaining <= 0)
            throw new DomainError('token.exhausted_add_quota');
        }
        return [statusChanged(state, command.status, 'user')];
      }
      case 'DeleteToken':
        assertOwned(state, command.userId);
        return [
          {
            type: 'TokenDeleted',
            data: { tokenId: state.tokenId, userId: state.userId, keyHash: state.keyHash },
          },
        ];
      case 'MarkTokenExpired':
        // Idempotent system reaction: nothing when gone or already expired.
        if (!state.exists || state.deleted || state.status === TokenStatus.Expired) return [];
        return [statusChanged(state, TokenStatus.Expired, 'expired')];
      case 'MarkTokenExhausted':
        if (!state.exists || state.deleted || state.status === TokenStatus.Exhausted) return [];
        if (state.settings?.unlimitedQuota) return [];
        return [statusChanged(state, TokenStatus.Exhausted, 'exhausted')];
    }
  },
};

/**
 * Only a limited token that exists has a quota to lease (a return or an expiry still ends what is
 * open); a budget lease needs the token's budget of that period, whatever its quota.
 */
function decideTokenLease(
  command: LeaseCommand,
  state: TokenState,
  context: DecideContext,
): TokenStreamEvent[] {
  const { window } = command.account;
  const settings = state.settings;
  const leasable = window
    ? (settings?.periodQuota ?? 0) > 0 && settings?.period === window.period
    : !settings?.unlimitedQuota;
  const unleasable = !state.exists || state.deleted || !leasable;
  if (command.type === 'LeaseBalance' && unleasable) return [];
  const account = {
    userId: state.userId,
    tokenId: state.tokenId,
    ...(window ? { window } : {}),
  };
  return decideLease({ ...command, account }, state, context);
}

function statusChanged(
  state: TokenState,
  to: number,
  reason: 'user' | 'expired' | 'exhausted',
): TokenEvent {
  return {
    type: 'TokenStatusChanged',
    data: { tokenId: state.tokenId, userId: state.userId, from: state.status, to, reason },
  };
}
