import type { TokenDto } from '@tollgate/contracts';

export const TOKENS = 'tokens';

/** A token in the read store: the key only sealed (opened for its owner at query time). */
export type TokenDocument = Omit<TokenDto, 'key'> & {
  _id: string;
  key_cipher: string;
  key_hash: string;
  /** `$all` commit of the last event applied (guards replays where writes are not atomic). */
  source_position: number;
};

export function toTokenDto(doc: TokenDocument, key: string): TokenDto {
  const { _id: _i, key_cipher: _c, key_hash: _h, source_position: _p, ...rest } = doc;
  return { ...rest, key };
}
