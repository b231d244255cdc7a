import { spec } from '@tollgate/testing';
import { fold } from '../shared/decider';
import { uniqueClaimDecider, type UniqueClaimEvent } from './unique-claim.decider';

const claimed = (ownerId: number): UniqueClaimEvent => ({
  type: 'UniqueValueClaimed',
  data: { value: 'alice', ownerId },
});
const released = (ownerId: number): UniqueClaimEvent => ({
  type: 'UniqueValueReleased',
  data: { value: 'alice', ownerId },
});
const claim = (ownerId: number) => ({
  type: 'ClaimUniqueValue' as const,
  value: 'alice',
  ownerId,
  takenCode: 'user.username_taken',
});
const release = (ownerId: number) => ({
  type: 'ReleaseUniqueValue' as const,
  value: 'alice',
  ownerId,
});

describe('uniqueClaimDecider', () => {
  it('claims a free value for its owner', () => {
    spec(uniqueClaimDecider)
      .given([])
      .when(claim(1))
      .then([claimed(1)]);
  });

  it('is idempotent when the same owner claims again', () => {
    spec(uniqueClaimDecider)
      .given([claimed(1)])
      .when(claim(1))
      .then([]);
  });

  it('rejects a value claimed by someone else with the code the caller chose', () => {
    spec(uniqueClaimDecider)
      .given([claimed(1)])
      .when(claim(2))
      .thenRejects('user.username_taken');
    spec(uniqueClaimDecider)
      .given([claimed(1)])
      .when({
        type: 'ClaimUniqueValue',
        value: 'a@example.com',
        ownerId: 2,
        takenCode: 'user.email_taken',
      })
      .thenRejects('user.email_taken');
  });

  it('lets the owner release the value', () => {
    spec(uniqueClaimDecider)
      .given([claimed(1)])
      .when(release(1))
      .then([released(1)]);
  });

  it('ignores a release by someone else', () => {
    spec(uniqueClaimDecider)
      .given([claimed(1)])
      .when(release(2))
      .then([]);
  });

  it('ignores a release of a value nobody holds', () => {
    spec(uniqueClaimDecider).given([]).when(release(1)).then([]);
    spec(uniqueClaimDecider)
      .given([claimed(1), released(1)])
      .when(release(1))
      .then([]);
  });

  it('makes a released value free for a new owner', () => {
    expect(fold(uniqueClaimDecider, [claimed(1), released(1)])).toEqual({ ownerId: null });
    spec(uniqueClaimDecider)
      .given([claimed(1), released(1)])
      .when(claim(2))
      .then([claimed(2)]);
  });

  it('tracks the current owner through the history', () => {
    expect(fold(uniqueClaimDecider, [])).toEqual({ ownerId: null });
    expect(fold(uniqueClaimDecider, [claimed(1), released(1), claimed(3)])).toEqual({ ownerId: 3 });
    spec(uniqueClaimDecider)
      .given([claimed(1), released(1), claimed(3)])
      .when(claim(1))
      .thenRejects('user.username_taken');
  });
});
