import type { Decider, DomainEvent } from '../shared/decider';

/** Integer ids for the API come from a per-kind stream (`seq-user`) appended with an exact revision. */
export type IdAllocated = DomainEvent<'IdAllocated', { id: number }>;
/** `count` (default 1) consecutive ids in one append: a batch of 100 codes is one write here, not 100. */
export type AllocateId = { readonly type: 'AllocateId'; readonly count?: number };

export const sequenceDecider: Decider<AllocateId, { last: number }, IdAllocated> = {
  initialState: { last: 0 },
  snapshotVersion: 1,
  evolve: (_state, event) => ({ last: event.data.id }),
  decide: (command, state) =>
    Array.from({ length: Math.max(1, command.count ?? 1) }, (_, i) => ({
      type: 'IdAllocated' as const,
      data: { id: state.last + 1 + i },
    })),
};
