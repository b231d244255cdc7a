import { Inject, Injectable } from '@nestjs/common';
import type { Position } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import {
  DEFAULT_GROUP,
  DomainError,
  assertPasswordRules,
  assertValidDisplayName,
  assertValidUsername,
  billingDecider,
  normalizeUsername,
  sequenceDecider,
  userDecider,
  type RegistrationSource,
} from '@tollgate/domain';
import { StreamCommands } from '../infrastructure/stream-commands';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { PasswordHasher } from '../infrastructure/password-hasher';
import { randomAlphanumeric } from '../infrastructure/random-text';
import { OptionsCache } from '../options/options.cache';
import { USERS, type UserDocument } from '../projections/user.document';
import type { RequestMeta } from '../shared/request-meta';
import { UniqueClaims } from './unique-claims';

export interface NewUser {
  readonly username: string;
  readonly password: string;
  readonly displayName?: string;
  readonly email?: string;
  readonly role: number;
  readonly affCode?: string;
  readonly source: RegistrationSource;
}

const AFF_CODE_LENGTH = 8;

/**
 * Registration spans several streams, each appended with its own expected revision:
 * seq-user (the id), username-<name> (the uniqueness guard), affcode-<code>, user-<id>, and the
 * billing streams of the new user and of the inviter.
 */
@Injectable()
export class UserRegistrar {
  constructor(
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly options: OptionsCache,
    private readonly claims: UniqueClaims,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async register(
    input: NewUser,
    meta: RequestMeta,
  ): Promise<{ userId: number; position: Position }> {
    assertValidUsername(input.username);
    // The bootstrap password (123456) predates the rules on purpose: login then demands a change.
    if (input.source !== 'bootstrap') assertPasswordRules(input.password);
    const displayName = input.displayName?.trim() || input.username;
    assertValidDisplayName(displayName);
    const users = this.readStore.collection<UserDocument>(USERS);
    const normalized = normalizeUsername(input.username);
    // Fast path: most duplicates are caught here without spending an id; the guard settles races.
    if (await users.findOne({ username_lower: normalized }))
      throw new DomainError('user.username_taken');
    const passwordHash = await this.hasher.hash(input.password);

    const { state: seq } = await this.store.execute(
      'seq-user',
      sequenceDecider,
      { type: 'AllocateId' },
      meta,
    );
    const userId = seq.last;
    await this.claims.claim('username', normalized, userId, 'user.username_taken', meta);
    const affCode = await this.claimAffCode(userId, meta);
    const inviter = input.affCode
      ? await users.findOne({ aff_code: input.affCode, DeletedAt: null })
      : null;

    const registered = await this.store.execute(
      `user-${userId}`,
      userDecider,
      {
        type: 'RegisterUser',
        userId,
        username: input.username,
        displayName,
        passwordHash,
        role: input.role,
        group: DEFAULT_GROUP,
        email: input.email ?? '',
        inviterId: inviter?.id ?? 0,
        affCode,
        source: input.source,
      },
      meta,
    );
    // Appends run one after another, so the last one written is the one to wait for.
    let last: Position = registered.position!;
    last =
      (await this.grant(userId, this.options.number('QuotaForNewUser'), 'new_user', meta)) ?? last;
    if (inviter) {
      last =
        (await this.grant(userId, this.options.number('QuotaForInvitee'), 'invitee_bonus', meta)) ??
        last;
      const reward = await this.store.execute(
        `billing-${inviter.id}`,
        billingDecider,
        {
          type: 'RewardInviter',
          userId: inviter.id,
          inviteeId: userId,
          amount: this.options.number('QuotaForInviter'),
        },
        meta,
      );
      last = reward.position ?? last;
    }
    return { userId, position: last };
  }

  private async grant(
    userId: number,
    amount: number,
    reason: 'new_user' | 'invitee_bonus',
    meta: RequestMeta,
  ) {
    const result = await this.store.execute(
      `billing-${userId}`,
      billingDecider,
      { type: 'GrantQuota', userId, amount: Math.max(0, Math.floor(amount)), reason },
      meta,
    );
    return result.position;
  }

  private async claimAffCode(userId: number, meta: RequestMeta): Promise<string> {
    for (;;) {
      const code = randomAlphanumeric(AFF_CODE_LENGTH);
      try {
        await this.claims.claim('affcode', code, userId, 'user.aff_code_taken', meta);
        return code;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'user.aff_code_taken')) throw error;
      }
    }
  }
}
