import type { DecideContext, Decider } from '@tollgate/domain/shared/decider';
import { DomainError } from '@tollgate/domain/shared/domain-error';

export const FIXED_NOW = new Date('2026-01-15T08:00:00.000Z');

/**
 * Given past events / when a command / then the new events or a rejection — the shape of every
 * domain test. No mocks: the decider is pure.
 */
export function spec<C, S, E>(
  decider: Decider<C, S, E>,
  context: DecideContext = { now: FIXED_NOW },
) {
  return {
    given(events: readonly E[]) {
      const state = events.reduce((s, e) => decider.evolve(s, e), decider.initialState);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state, context);
          return {
            then(expected: readonly E[]) {
              expect(run()).toEqual(expected);
            },
            thenRejects(code: string, params?: Record<string, string | number>) {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              if (params) expect((caught as DomainError).params).toEqual(params);
            },
          };
        },
      };
    },
  };
}
