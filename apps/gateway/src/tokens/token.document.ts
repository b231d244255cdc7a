import type { TokenDto } from '@tollgate/contracts';

export const TOKENS = 'tokens';

/** A token in the read store: the key only sealed (opened for its owner at query time). */
export type TokenDocument = Omit<TokenDto, 'key'> & {
  _id: string;
  key_cipher: string;
  key_hash: string;
};

export function toTokenDto(doc: TokenDocument, key: string): TokenDto {
  const { _id: _i, key_cipher: _c, key_hash: _h, ...rest } = doc;
  return { ...rest, key };
}
