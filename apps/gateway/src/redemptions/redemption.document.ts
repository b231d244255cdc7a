import type { RedemptionDto } from '@tollgate/contracts';

export const REDEMPTIONS = 'redemptions';

/** A code in the read store: the key only sealed (opened for admins at query time). */
export type RedemptionDocument = Omit<RedemptionDto, 'key'> & {
  _id: string;
  key_cipher: string;
  key_hash: string;
};

export function toRedemptionDto(doc: RedemptionDocument, key: string): RedemptionDto {
  const { _id: _i, key_cipher: _c, key_hash: _h, ...rest } = doc;
  return { ...rest, key };
}
