import { FIXED_NOW, spec } from '@tollgate/testing';
import { redemptionDecider, type RedemptionCommand } from './redemption.decider';
import type { RedemptionEvent } from './redemption.events';

const NOW_S = Math.floor(FIXED_NOW.getTime() / 1000);
const sealed = { cipher: 'cipher', hash: 'keyed' };
const created: RedemptionEvent = {
  type: 'RedemptionCreated',
  data: {
    redemptionId: 4,
    createdBy: 1,
    name: 'gift',
    quota: 100000,
    sealedKey: sealed,
    keyHash: 'sha',
    createdTime: NOW_S - 60,
  },
};
const redeemed: RedemptionEvent = {
  type: 'RedemptionRedeemed',
  data: { redemptionId: 4, userId: 9, quota: 100000, redeemedTime: NOW_S - 5 },
};
const disabled: RedemptionEvent = {
  type: 'RedemptionStatusChanged',
  data: { redemptionId: 4, from: 1, to: 2 },
};
const deleted: RedemptionEvent = {
  type: 'RedemptionDeleted',
  data: { redemptionId: 4, keyHash: 'sha' },
};
const create = (name: string, quota: number): RedemptionCommand => ({
  type: 'CreateRedemption',
  redemptionId: 4,
  createdBy: 1,
  name,
  quota,
  sealedKey: sealed,
  keyHash: 'sha',
});

describe('redemptionDecider', () => {
  describe('CreateRedemption', () => {
    it('records the code sealed, with its hash and creator', () => {
      spec(redemptionDecider)
        .given([])
        .when(create(' gift ', 100000))
        .then([{ ...created, data: { ...created.data, createdTime: NOW_S } }]);
    });

    it.each<[string, string, number, string]>([
      ['an empty name', ' ', 10, 'redemption.name_required'],
      ['a name over 20 characters', 'n'.repeat(21), 10, 'redemption.name_too_long'],
      ['a zero quota', 'gift', 0, 'redemption.quota_invalid'],
      ['a fractional quota', 'gift', 1.5, 'redemption.quota_invalid'],
    ])('rejects %s', (_what, name, quota, code) => {
      spec(redemptionDecider).given([]).when(create(name, quota)).thenRejects(code);
    });

    it('refuses a second creation on the same stream', () => {
      spec(redemptionDecider)
        .given([created])
        .when(create('gift', 1))
        .thenRejects('redemption.already_exists');
    });
  });

  describe('UpdateRedemption', () => {
    const update = (name: string, quota: number): RedemptionCommand => ({
      type: 'UpdateRedemption',
      redemptionId: 4,
      name,
      quota,
    });
    it('changes name and quota while unused', () => {
      spec(redemptionDecider)
        .given([created])
        .when(update('bigger', 200))
        .then([
          { type: 'RedemptionUpdated', data: { redemptionId: 4, name: 'bigger', quota: 200 } },
        ]);
    });
    it('does nothing when nothing changes', () => {
      spec(redemptionDecider).given([created]).when(update('gift', 100000)).then([]);
    });
    it('refuses once used or disabled, and when missing', () => {
      spec(redemptionDecider)
        .given([created, redeemed])
        .when(update('x', 1))
        .thenRejects('redemption.not_editable');
      spec(redemptionDecider)
        .given([created, disabled])
        .when(update('x', 1))
        .thenRejects('redemption.not_editable');
      spec(redemptionDecider).given([]).when(update('x', 1)).thenRejects('redemption.not_found');
      spec(redemptionDecider)
        .given([created, deleted])
        .when(update('x', 1))
        .thenRejects('redemption.not_found');
    });
    it('validates the fields', () => {
      spec(redemptionDecider)
        .given([created])
        .when(update('x', -1))
        .thenRejects('redemption.quota_invalid');
    });
  });

  describe('ChangeRedemptionStatus', () => {
    const toggle = (status: number): RedemptionCommand => ({
      type: 'ChangeRedemptionStatus',
      redemptionId: 4,
      status,
    });
    it('toggles unused ⇄ disabled', () => {
      spec(redemptionDecider).given([created]).when(toggle(2)).then([disabled]);
      spec(redemptionDecider)
        .given([created, disabled])
        .when(toggle(1))
        .then([{ type: 'RedemptionStatusChanged', data: { redemptionId: 4, from: 2, to: 1 } }]);
      spec(redemptionDecider).given([created]).when(toggle(1)).then([]);
    });
    it('a used code stays used', () => {
      spec(redemptionDecider)
        .given([created, redeemed])
        .when(toggle(1))
        .thenRejects('redemption.already_used');
    });
    it('refuses other statuses and missing codes', () => {
      spec(redemptionDecider)
        .given([created])
        .when(toggle(3))
        .thenRejects('redemption.status_invalid');
      spec(redemptionDecider).given([]).when(toggle(2)).thenRejects('redemption.not_found');
    });
  });

  describe('RedeemCode', () => {
    it('redeems an unused code once, for its quota', () => {
      spec(redemptionDecider)
        .given([created])
        .when({ type: 'RedeemCode', userId: 9 })
        .then([
          {
            type: 'RedemptionRedeemed',
            data: { redemptionId: 4, userId: 9, quota: 100000, redeemedTime: NOW_S },
          },
        ]);
    });
    it('refuses a used, a disabled, a deleted or an unknown code', () => {
      spec(redemptionDecider)
        .given([created, redeemed])
        .when({ type: 'RedeemCode', userId: 10 })
        .thenRejects('redemption.already_used');
      spec(redemptionDecider)
        .given([created, disabled])
        .when({ type: 'RedeemCode', userId: 10 })
        .thenRejects('redemption.disabled');
      spec(redemptionDecider)
        .given([created, deleted])
        .when({ type: 'RedeemCode', userId: 10 })
        .thenRejects('redemption.invalid_code');
      spec(redemptionDecider)
        .given([])
        .when({ type: 'RedeemCode', userId: 10 })
        .thenRejects('redemption.invalid_code');
    });
  });

  describe('DeleteRedemption', () => {
    it('records the deletion, whatever the status', () => {
      spec(redemptionDecider)
        .given([created, redeemed])
        .when({ type: 'DeleteRedemption', redemptionId: 4 })
        .then([deleted]);
    });
    it('refuses a missing code', () => {
      spec(redemptionDecider)
        .given([created, deleted])
        .when({ type: 'DeleteRedemption', redemptionId: 4 })
        .thenRejects('redemption.not_found');
    });
  });
});
