import type { Decider, DomainEvent } from '../shared/decider';
import { DomainError } from '../shared/domain-error';

/**
 * A uniqueness guard: one stream per normalized value (`username-alice`), claimed with an expected
 * revision so that two concurrent claims cannot both win.
 */
export type UniqueValueClaimed = DomainEvent<
  'UniqueValueClaimed',
  { value: string; ownerId: number }
>;
export type UniqueValueReleased = DomainEvent<
  'UniqueValueReleased',
  { value: string; ownerId: number }
>;
export type UniqueClaimEvent = UniqueValueClaimed | UniqueValueReleased;

export type UniqueClaimCommand =
  | {
      readonly type: 'ClaimUniqueValue';
      readonly value: string;
      readonly ownerId: number;
      readonly takenCode: string;
    }
  | { readonly type: 'ReleaseUniqueValue'; readonly value: string; readonly ownerId: number };

export interface UniqueClaimState {
  readonly ownerId: number | null;
}

export const uniqueClaimDecider: Decider<UniqueClaimCommand, UniqueClaimState, UniqueClaimEvent> = {
  initialState: { ownerId: null },
  evolve: (_state, event) => ({
    ownerId: event.type === 'UniqueValueClaimed' ? event.data.ownerId : null,
  }),
  decide(command, state) {
    if (command.type === 'ClaimUniqueValue') {
      if (state.ownerId === command.ownerId) return [];
      if (state.ownerId !== null) throw new DomainError(command.takenCode);
      return [
        { type: 'UniqueValueClaimed', data: { value: command.value, ownerId: command.ownerId } },
      ];
    }
    if (state.ownerId !== command.ownerId) return [];
    return [
      { type: 'UniqueValueReleased', data: { value: command.value, ownerId: command.ownerId } },
    ];
  },
};
