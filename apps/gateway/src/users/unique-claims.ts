import { Injectable } from '@nestjs/common';
import { uniqueClaimDecider } from '@tollgate/domain';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/** The kinds of value kept unique by a guard stream `<kind>-<value>`. */
export type UniqueKind =
  | 'username'
  | 'affcode'
  | 'email'
  | 'githubid'
  | 'wechatid'
  | 'telegramid'
  | 'oidcsub'
  | 'linuxdoid';

/**
 * Claims and releases uniqueness guards. A claim appends with the guard stream's expected revision,
 * so of two concurrent claims only one wins; the loser gets DomainError(takenCode).
 */
@Injectable()
export class UniqueClaims {
  constructor(private readonly store: StreamCommands) {}

  claim(kind: UniqueKind, value: string, ownerId: number, takenCode: string, meta: RequestMeta) {
    return this.store.execute(
      `${kind}-${value}`,
      uniqueClaimDecider,
      { type: 'ClaimUniqueValue', value, ownerId, takenCode },
      meta,
    );
  }

  release(kind: UniqueKind, value: string, ownerId: number, meta: RequestMeta) {
    return this.store.execute(
      `${kind}-${value}`,
      uniqueClaimDecider,
      { type: 'ReleaseUniqueValue', value, ownerId },
      meta,
    );
  }
}
