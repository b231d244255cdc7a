import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR, normalizeEmail } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import type { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.tokens';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { sharedStoreGraceMs } from '../../infrastructure/shared-store-grace';
import { UNIQUE_CLAIMS, type UniqueClaimDocument } from '../../users/unique-claims.projection';
import { USERS, type UserDocument } from '../../users/user.document';
import type { RequestMeta } from '../../shared/request-meta';
import { UniqueClaims, type UniqueKind } from '../../users/unique-claims';
import { UserRegistrar } from '../../users/user-registrar';

export class RecoverRegistrationsCommand extends Command<{ released: number; finished: number }> {}

/**
 * Start-up, after the read models caught up: what a crash left of a registration (or a rename) is
 * undone or finished, so no name or aff code is burnt and no user lacks their grants.
 * - a guard claim whose owner does not hold that value (never registered, or renamed away) is
 *   released;
 * - a registered user whose UserRegistrationCompleted is missing gets the missing grants, the
 *   inviter's reward and the completion.
 * On the embedded store this process is alone (the DATA_DIR lock), so nothing is in flight; with
 * EventStoreDB another process may be mid-registration, so only steps older than a minute count.
 */
@CommandHandler(RecoverRegistrationsCommand)
export class RecoverRegistrationsHandler implements ICommandHandler<RecoverRegistrationsCommand> {
  private readonly logger = new Logger('RegistrationRecovery');

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly claims: UniqueClaims,
    private readonly registrar: UserRegistrar,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(): Promise<{ released: number; finished: number }> {
    const meta: RequestMeta = { actor: SYSTEM_ACTOR, correlationId: randomUUID(), lang: 'en' };
    const cutoff = Date.now() - sharedStoreGraceMs(this.config);
    const users = this.readStore.collection<UserDocument>(USERS);
    let released = 0;
    for (const claim of await this.readStore
      .collection<UniqueClaimDocument>(UNIQUE_CLAIMS)
      .find({ settled: false })) {
      if (claim.claimed_at > cutoff) continue;
      const owner = await users.get(String(claim.owner_id));
      const held = heldValue(claim.kind, owner);
      if (held === claim.value) continue;
      const result = await this.claims.release(
        claim.kind as UniqueKind,
        claim.value,
        claim.owner_id,
        meta,
      );
      await this.readYourWrites.waitFor(result.position);
      released += 1;
    }
    let finished = 0;
    for (const user of await users.find({ registration_pending: true })) {
      if (user.created_at * 1000 > cutoff) continue;
      await this.readYourWrites.waitFor(
        await this.registrar.finish(user.id, user.inviter_id, meta),
      );
      finished += 1;
    }
    if (released + finished > 0)
      this.logger.warn(
        `Recovered interrupted registrations: released ${released} orphaned claim(s), finished ${finished} registration(s)`,
      );
    return { released, finished };
  }
}

/** The value of this kind the owner holds now (a guard for anything else is an orphan). */
function heldValue(kind: string, owner: UserDocument | null): string | undefined {
  if (!owner) return undefined;
  if (kind === 'username') return owner.username_lower;
  if (kind === 'affcode') return owner.aff_code;
  if (kind === 'email') return owner.email_verified ? normalizeEmail(owner.email) : undefined;
  return undefined;
}
