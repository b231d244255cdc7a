import { RedemptionStatus } from '@tollgate/contracts';
import type { Projection } from '@tollgate/read-store';
import { REDEMPTION_EVENT_TYPES, type RedemptionEvent } from '@tollgate/domain';
import { REDEMPTIONS, type RedemptionDocument } from './redemption.document';

/** redemptions: one document per code (deleted codes are removed). */
export const redemptionListProjection: Projection = {
  name: 'redemptions',
  // 2: RedemptionImported (codes taken over from a one-api / new-api database).
  version: 2,
  collections: [
    {
      name: REDEMPTIONS,
      indexes: [{ fields: { id: -1 } }, { fields: { key_hash: 1 } }, { fields: { name: 1 } }],
    },
  ],
  eventTypes: REDEMPTION_EVENT_TYPES,
  async apply(recorded, session) {
    const codes = session.collection<RedemptionDocument>(REDEMPTIONS);
    const event = { type: recorded.type, data: recorded.data } as RedemptionEvent;
    const id = String(event.data.redemptionId);
    switch (event.type) {
      case 'RedemptionCreated': {
        const d = event.data;
        // Insert once: a replayed creation must not bring a used code back.
        const { _id, ...doc }: RedemptionDocument = {
          _id: id,
          id: d.redemptionId,
          user_id: d.createdBy,
          name: d.name,
          key_cipher: d.sealedKey.cipher,
          key_hash: d.keyHash,
          status: RedemptionStatus.Unused,
          quota: d.quota,
          created_time: d.createdTime,
          redeemed_time: 0,
          used_user_id: 0,
        };
        await codes.update(_id, { $setOnInsert: doc }, { upsert: true });
        return;
      }
      case 'RedemptionImported': {
        const d = event.data;
        // A code the source had deleted is kept in the log only (its id stays taken).
        if (d.deleted) {
          await codes.delete(id);
          return;
        }
        const { _id, ...doc }: RedemptionDocument = {
          _id: id,
          id: d.redemptionId,
          user_id: d.createdBy,
          name: d.name,
          key_cipher: d.sealedKey.cipher,
          key_hash: d.keyHash,
          status: d.status,
          quota: d.quota,
          created_time: d.createdTime,
          redeemed_time: d.redeemedTime,
          used_user_id: d.usedUserId,
        };
        await codes.update(_id, { $setOnInsert: doc }, { upsert: true });
        return;
      }
      case 'RedemptionUpdated':
        await codes.update(id, { $set: { name: event.data.name, quota: event.data.quota } });
        return;
      case 'RedemptionStatusChanged':
        await codes.update(id, { $set: { status: event.data.to } });
        return;
      case 'RedemptionRedeemed':
        await codes.update(id, {
          $set: {
            status: RedemptionStatus.Used,
            redeemed_time: event.data.redeemedTime,
            used_user_id: event.data.userId,
          },
        });
        return;
      case 'RedemptionDeleted':
        await codes.delete(id);
        return;
    }
  },
};
