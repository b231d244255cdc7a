import type { Decider, DomainEvent } from '../shared/decider';

/**
 * A token's concurrency limit shared by scale-out gateway processes (docs/scale-out.md, "Rate
 * limits across processes"). On `concurrency-token-<id>` each process records how many of the
 * token's slots it holds and until when; a hold not renewed by its expiry counts for nothing, so the
 * slots of a process killed mid-request come back on their own, without an event. A hold grows only
 * while the live holds of all processes stay within the limit, by what the limit leaves free.
 */
export type SlotsHeld = DomainEvent<
  'SlotsHeld',
  { processId: string; slots: number; expiresAt: number }
>;

export type ConcurrencySlotsEvent = SlotsHeld;

export interface HoldSlots {
  readonly type: 'HoldSlots';
  readonly processId: string;
  /** The slots this process holds from now on: more (taking), the same (renewing), fewer (giving back). */
  readonly slots: number;
  readonly limit: number;
  readonly ttlMs: number;
}

export type ConcurrencySlotsCommand = HoldSlots;

export interface ConcurrencySlotsState {
  /** Per process: its last hold (a lapsed one counts for nothing). */
  readonly holds: Readonly<Record<string, { slots: number; expiresAt: number }>>;
}

export const concurrencySlotsDecider: Decider<
  ConcurrencySlotsCommand,
  ConcurrencySlotsState,
  ConcurrencySlotsEvent
> = {
  initialState: { holds: {} },
  // Small state (one entry per process holding slots): snapshots keep a long-lived stream cheap.
  snapshotVersion: 1,
  evolve(state, event) {
    const holds = { ...state.holds };
    const { processId, slots, expiresAt } = event.data;
    if (slots > 0) holds[processId] = { slots, expiresAt };
    else delete holds[processId];
    return { holds };
  },
  decide(command, state, { now }) {
    const { processId, slots, limit, ttlMs } = command;
    if (!isCount(slots) || !isCount(limit) || !isCount(ttlMs)) return [];
    const at = now.getTime();
    const own = liveSlots(state.holds[processId], at);
    if (slots === 0 && !state.holds[processId]) return [];
    let others = 0;
    for (const [id, hold] of Object.entries(state.holds))
      if (id !== processId) others += liveSlots(hold, at);
    // Keeping or shrinking a hold is never refused. Growing takes what the limit leaves free, so
    // processes asking together share the slots instead of refusing each other; no free slot at
    // all refuses the growth.
    const granted = slots > own ? Math.min(slots, limit - others) : slots;
    if (slots > own && granted <= own) return [];
    return [{ type: 'SlotsHeld', data: { processId, slots: granted, expiresAt: at + ttlMs } }];
  },
};

export const concurrencySlotsStream = (tokenId: number): string => `concurrency-token-${tokenId}`;

const liveSlots = (hold: { slots: number; expiresAt: number } | undefined, at: number): number =>
  hold && hold.expiresAt > at ? hold.slots : 0;

const isCount = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;
