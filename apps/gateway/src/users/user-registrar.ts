import { Inject, Injectable } from '@nestjs/common';
import type { EventStore, Position } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import {
  DEFAULT_GROUP,
  DomainError,
  IDENTITY_GUARD_KIND,
  IDENTITY_TAKEN_CODE,
  identityGuardValue,
  type ExternalProvider,
  assertPasswordRules,
  assertValidDisplayName,
  assertValidUsername,
  billingDecider,
  canonicalDisplayName,
  canonicalUsername,
  normalizeEmail,
  normalizeUsername,
  sequenceDecider,
  userDecider,
  type RegistrationSource,
} from '@tollgate/domain';
import { StreamCommands } from '../infrastructure/stream-commands';
import { EVENT_STORE, READ_STORE } from '../infrastructure/injection-tokens';
import { PasswordHasher } from '../infrastructure/password-hasher';
import { randomAlphanumeric } from '../infrastructure/random-text';
import { OptionsCache } from '../options/options.cache';
import { USERS, type UserDocument } from './user.document';
import { crashPoint } from '../shared/crash-point';
import type { RequestMeta } from '../shared/request-meta';
import { UniqueClaims } from './unique-claims';

export interface NewUser {
  readonly username: string;
  readonly password: string;
  readonly displayName?: string;
  readonly email?: string;
  /** Proven by a mailed code: stored normalized, claimed unique (`email-<address>`), signs in. */
  readonly emailVerified?: boolean;
  readonly role: number;
  readonly affCode?: string;
  readonly source: RegistrationSource;
  /**
   * A third-party identity the new user signs in with (GitHub, WeChat, Telegram, OpenID Connect):
   * its guard is claimed before the user exists, so one id never makes two users; the password is
   * then a random one nobody knows.
   */
  readonly identity?: { readonly provider: ExternalProvider; readonly externalId: string };
}

const AFF_CODE_LENGTH = 8;
/** Billing events of an inviter searched for a reward an interrupted registration may have written. */
const INVITER_LOOKBACK = 500;

/**
 * Registration spans several streams, each appended with its own expected revision:
 * seq-user (the id), username-<name> (the uniqueness guard), affcode-<code>, user-<id>, and the
 * billing streams of the new user and of the inviter. A crash can stop it between any two appends:
 * before UserRegistered the guards are orphans that start-up recovery releases; after it,
 * recovery finishes the grants (RecoverRegistrationsHandler).
 */
@Injectable()
export class UserRegistrar {
  constructor(
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly options: OptionsCache,
    private readonly claims: UniqueClaims,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(EVENT_STORE) private readonly eventStore: EventStore,
  ) {}

  async register(
    input: NewUser,
    meta: RequestMeta,
  ): Promise<{ userId: number; position: Position }> {
    const username = canonicalUsername(input.username);
    assertValidUsername(username);
    // The bootstrap password (123456) predates the rules on purpose: login then demands a change.
    if (input.source !== 'bootstrap' && !input.identity) assertPasswordRules(input.password);
    const displayName = canonicalDisplayName(input.displayName ?? '') || username;
    assertValidDisplayName(displayName);
    const users = this.readStore.collection<UserDocument>(USERS);
    const normalized = normalizeUsername(username);
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
    crashPoint('registration:after-id');
    await this.claims.claim('username', normalized, userId, 'user.username_taken', meta);
    crashPoint('registration:after-username');
    const email = input.emailVerified ? normalizeEmail(input.email ?? '') : (input.email ?? '');
    if (input.emailVerified) await this.claimEmail(email, userId, normalized, meta);
    if (input.identity) await this.claimIdentity(input.identity, userId, normalized, meta);
    const affCode = await this.claimAffCode(userId, meta);
    crashPoint('registration:after-affcode');
    const inviter = input.affCode
      ? await users.findOne({ aff_code: input.affCode, DeletedAt: null })
      : null;

    // The commit point: from here on the user exists; what follows is finished by recovery if a
    // crash interrupts it (UserRegistrationCompleted marks the end).
    const registered = await this.store.execute(
      `user-${userId}`,
      userDecider,
      {
        type: 'RegisterUser',
        userId,
        username,
        displayName,
        passwordHash,
        role: input.role,
        group: DEFAULT_GROUP,
        email,
        ...(input.emailVerified ? { emailVerified: true } : {}),
        inviterId: inviter?.id ?? 0,
        affCode,
        source: input.source,
        completionFollows: true,
      },
      meta,
    );
    crashPoint('registration:after-user');
    if (input.identity)
      await this.store.execute(
        `user-${userId}`,
        userDecider,
        { type: 'BindExternalIdentity', ...input.identity },
        meta,
      );
    const last = await this.finish(userId, inviter?.id ?? 0, meta, true);
    return { userId, position: last ?? registered.position! };
  }

  /**
   * The steps after UserRegistered: the new user's grants, the inviter's reward, then
   * UserRegistrationCompleted. `fresh` skips the look-ups that make it safe to run again after a
   * crash (a recovery run checks what was already written).
   */
  async finish(
    userId: number,
    inviterId: number,
    meta: RequestMeta,
    fresh = false,
  ): Promise<Position | null> {
    const granted = fresh ? [] : await this.grantReasons(userId);
    // Crash points mark the request path only; a recovery run is idempotent as a whole.
    const crashAt = fresh ? crashPoint : () => undefined;
    // Appends run one after another, so the last one written is the one to wait for.
    let last: Position | null = null;
    if (!granted.includes('new_user'))
      last =
        (await this.grant(userId, this.options.number('QuotaForNewUser'), 'new_user', meta)) ??
        last;
    crashAt('registration:after-grant');
    if (inviterId) {
      if (!granted.includes('invitee_bonus'))
        last =
          (await this.grant(
            userId,
            this.options.number('QuotaForInvitee'),
            'invitee_bonus',
            meta,
          )) ?? last;
      crashAt('registration:after-invitee-bonus');
      if (fresh || !(await this.inviterRewarded(inviterId, userId))) {
        const reward = await this.store.execute(
          `billing-${inviterId}`,
          billingDecider,
          {
            type: 'RewardInviter',
            userId: inviterId,
            inviteeId: userId,
            amount: this.options.number('QuotaForInviter'),
          },
          meta,
        );
        last = reward.position ?? last;
      }
      crashAt('registration:after-inviter-reward');
    }
    const completed = await this.store.execute(
      `user-${userId}`,
      userDecider,
      { type: 'CompleteRegistration' },
      meta,
    );
    return completed.position ?? last;
  }

  /** Grant reasons already on the new user's billing stream (a handful of events at most). */
  private async grantReasons(userId: number): Promise<string[]> {
    const events = await this.eventStore.readStream(`billing-${userId}`);
    return events
      .filter((e) => e.type === 'QuotaGranted')
      .map((e) => String((e.data as { reason?: unknown }).reason));
  }

  /** Whether the inviter's recent billing events already reward this invitee (bounded read). */
  private async inviterRewarded(inviterId: number, inviteeId: number): Promise<boolean> {
    const recent = await this.eventStore.readStream(`billing-${inviterId}`, {
      direction: 'backwards',
      maxCount: INVITER_LOOKBACK,
    });
    return recent.some(
      (e) =>
        e.type === 'InviterRewarded' && (e.data as { inviteeId?: unknown }).inviteeId === inviteeId,
    );
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

  /** The email's guard; when someone else holds it, the name claimed a step before is let go. */
  private async claimEmail(email: string, userId: number, username: string, meta: RequestMeta) {
    try {
      await this.claims.claim('email', email, userId, 'mail.email_taken', meta);
    } catch (error) {
      await this.claims.release('username', username, userId, meta);
      throw error;
    }
  }

  /** The identity's guard; when someone else holds it, the name claimed a step before is let go. */
  private async claimIdentity(
    identity: NonNullable<NewUser['identity']>,
    userId: number,
    username: string,
    meta: RequestMeta,
  ) {
    try {
      await this.claims.claim(
        IDENTITY_GUARD_KIND[identity.provider],
        identityGuardValue(identity.externalId),
        userId,
        IDENTITY_TAKEN_CODE[identity.provider],
        meta,
      );
    } catch (error) {
      await this.claims.release('username', username, userId, meta);
      throw error;
    }
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
