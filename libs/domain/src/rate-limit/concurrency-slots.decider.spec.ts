import { FIXED_NOW, spec } from '@tollgate/testing';
import { concurrencySlotsDecider, type ConcurrencySlotsEvent } from './concurrency-slots.decider';

const NOW = FIXED_NOW.getTime();
const TTL = 3_000;

const held = (processId: string, slots: number, expiresAt = NOW + TTL): ConcurrencySlotsEvent => ({
  type: 'SlotsHeld',
  data: { processId, slots, expiresAt },
});
const hold = (processId: string, slots: number, limit = 3) => ({
  type: 'HoldSlots' as const,
  processId,
  slots,
  limit,
  ttlMs: TTL,
});

describe('concurrencySlotsDecider', () => {
  it('holds slots while every live hold stays within the limit', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 2)])
      .when(hold('b', 1))
      .then([held('b', 1)]);
  });

  it('refuses a hold that would take the processes past the limit', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 2), held('b', 1)])
      .when(hold('b', 2))
      .then([]);
  });

  it('grows a hold by what the limit leaves free when it cannot grow by all it asks', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 1), held('b', 1)])
      .when(hold('b', 3))
      .then([held('b', 2)]);
    spec(concurrencySlotsDecider)
      .given([held('a', 2)])
      .when(hold('b', 3))
      .then([held('b', 1)]);
  });

  it('a lapsed hold (its process died) counts for nothing', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 3, NOW - 1)])
      .when(hold('b', 3))
      .then([held('b', 3)]);
  });

  it('renews or shrinks a hold even past a lowered limit', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 3, NOW + 10), held('b', 2)])
      .when(hold('b', 2, 3))
      .then([held('b', 2)]);
    spec(concurrencySlotsDecider)
      .given([held('a', 3, NOW + 10), held('b', 2)])
      .when(hold('b', 1, 3))
      .then([held('b', 1)]);
  });

  it('gives a hold back with 0 slots, once', () => {
    spec(concurrencySlotsDecider)
      .given([held('a', 2)])
      .when(hold('a', 0))
      .then([held('a', 0)]);
    spec(concurrencySlotsDecider)
      .given([held('a', 2), held('a', 0)])
      .when(hold('a', 0))
      .then([]);
    const state = [held('a', 2), held('a', 0)].reduce(
      concurrencySlotsDecider.evolve,
      concurrencySlotsDecider.initialState,
    );
    expect(state).toEqual({ holds: {} });
  });
});
