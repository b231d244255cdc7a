import type { Decider, DomainEvent } from '../shared/decider';

/** Integer ids for the API come from a per-kind stream (`seq-user`) appended with an exact revision. */
export type IdAllocated = DomainEvent<'IdAllocated', { id: number }>;
export type AllocateId = { readonly type: 'AllocateId' };

export const sequenceDecider: Decider<AllocateId, { last: number }, IdAllocated> = {
  initialState: { last: 0 },
  snapshotVersion: 1,
  evolve: (_state, event) => ({ last: event.data.id }),
  decide: (_command, state) => [{ type: 'IdAllocated', data: { id: state.last + 1 } }],
};
