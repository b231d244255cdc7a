import { spec } from '@tollgate/testing';
import {
  allowanceDecider,
  type AllowanceEvent,
  allowanceExhausted,
  allowanceSlice,
  allowanceStream,
  windowStartOf,
} from './allowance.decider';

const taken = (processId: string, amount: number): AllowanceEvent => ({
  type: 'AllowanceTaken',
  data: { processId, amount },
});
const take = (processId: string, want: number, limit: number) => ({
  type: 'TakeAllowance' as const,
  processId,
  want,
  limit,
});

describe('allowanceDecider', () => {
  it('grants the slice asked for while the window has that much left', () => {
    spec(allowanceDecider)
      .given([])
      .when(take('a', 2, 6))
      .then([taken('a', 2)]);
  });

  it('grants only what is left of the limit, whoever took the rest', () => {
    spec(allowanceDecider)
      .given([taken('a', 2), taken('b', 3)])
      .when(take('c', 2, 6))
      .then([taken('c', 1)]);
  });

  it('grants nothing once the window is all taken', () => {
    spec(allowanceDecider)
      .given([taken('a', 3), taken('b', 3)])
      .when(take('a', 1, 6))
      .then([]);
  });

  it('a lowered limit grants nothing past what was already taken', () => {
    spec(allowanceDecider)
      .given([taken('a', 5)])
      .when(take('b', 2, 4))
      .then([]);
  });

  it('asks for nothing sensible, grants nothing', () => {
    spec(allowanceDecider)
      .given([])
      .when(take('a', 0, 6))
      .then([]);
    spec(allowanceDecider)
      .given([])
      .when(take('a', 1, 0))
      .then([]);
  });

  it('folds the slices into what is taken, and says when the window is exhausted', () => {
    const state = [taken('a', 4), taken('b', 2)].reduce(
      allowanceDecider.evolve,
      allowanceDecider.initialState,
    );
    expect(state).toEqual({ taken: 6 });
    expect(allowanceExhausted(state, 6)).toBe(true);
    expect(allowanceExhausted(state, 7)).toBe(false);
  });
});

describe('allowance windows and slices', () => {
  it('cuts a limit into slices of at least one', () => {
    expect(allowanceSlice(6, 4)).toBe(1);
    expect(allowanceSlice(10_000, 4)).toBe(625);
    expect(allowanceSlice(1, 0)).toBe(1);
  });

  it('names one stream per key and fixed window', () => {
    expect(windowStartOf(125_000, 60_000)).toBe(120_000);
    expect(allowanceStream('token-7-rpm', 120_000)).toBe('allowance-token-7-rpm-120000');
  });
});
