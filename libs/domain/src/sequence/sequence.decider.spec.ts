import { FIXED_NOW, spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { sequenceDecider, type IdAllocated } from './sequence.decider';

const allocated = (id: number): IdAllocated => ({ type: 'IdAllocated', data: { id } });

describe('sequenceDecider', () => {
  it('allocates 1 first', () => {
    spec(sequenceDecider)
      .given([])
      .when({ type: 'AllocateId' })
      .then([allocated(1)]);
  });

  it('allocates the next id after the last one', () => {
    spec(sequenceDecider)
      .given([allocated(1)])
      .when({ type: 'AllocateId' })
      .then([allocated(2)]);
    spec(sequenceDecider)
      .given([allocated(1), allocated(2)])
      .when({ type: 'AllocateId' })
      .then([allocated(3)]);
  });

  it('allocates 1, 2, 3 when each decision is folded back in', () => {
    const history: IdAllocated[] = [];
    for (let i = 0; i < 3; i += 1) {
      history.push(
        ...sequenceDecider.decide({ type: 'AllocateId' }, fold(sequenceDecider, history), {
          now: FIXED_NOW,
        }),
      );
    }
    expect(history.map((event) => event.data.id)).toEqual([1, 2, 3]);
    expect(fold(sequenceDecider, history)).toEqual({ last: 3 });
  });

  it('follows the last allocated id', () => {
    spec(sequenceDecider)
      .given([allocated(41)])
      .when({ type: 'AllocateId' })
      .then([allocated(42)]);
  });
});

describe('sequenceDecider batches', () => {
  it('allocates `count` consecutive ids at once, after the last one', () => {
    spec(sequenceDecider)
      .given([allocated(7)])
      .when({ type: 'AllocateId', count: 3 })
      .then([allocated(8), allocated(9), allocated(10)]);
  });
});
