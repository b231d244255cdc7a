import type { Decider, DomainEvent } from '../shared/decider';

/**
 * `oauthmark-<hash of scope and value>`: an OAuth state or authorization code spent on our side
 * (`scope`: `state`, or the provider whose code it is). Until `expiresAt` (unix ms) the value is
 * refused everywhere; the stream's expected revision lets only one of two concurrent uses win.
 */
export type OAuthValueSpent = DomainEvent<'OAuthValueSpent', { scope: string; expiresAt: number }>;
export type OAuthMarkEvent = OAuthValueSpent;

export interface SpendOAuthValue {
  readonly type: 'SpendOAuthValue';
  readonly scope: string;
  readonly expiresAt: number;
}

/** Until when the value is spent (null: never spent). */
export interface OAuthMarkState {
  readonly spentUntil: number | null;
}

/** Spending answers one event the first time, none on a replay before the mark expires. */
export const oauthMarkDecider: Decider<SpendOAuthValue, OAuthMarkState, OAuthMarkEvent> = {
  initialState: { spentUntil: null },
  evolve: (_state, event) => ({ spentUntil: event.data.expiresAt }),
  decide(command, state, { now }) {
    if (state.spentUntil !== null && state.spentUntil > now.getTime()) return [];
    return [
      { type: 'OAuthValueSpent', data: { scope: command.scope, expiresAt: command.expiresAt } },
    ];
  },
};
