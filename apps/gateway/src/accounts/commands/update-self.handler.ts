import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { ReadStore } from '@tollgate/read-store';
import {
  assertPasswordRules,
  assertValidDisplayName,
  canonicalDisplayName,
  userDecider,
} from '@tollgate/domain';
import { PasswordAttempts } from '../../auth/password-attempts';
import type { SessionClaims } from '../../auth/session-codec';
import type { SignedInUser } from '../../auth/signed-in-user';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { userDocument } from '../../users/user-lookup';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { UpdateSelfBody } from '../accounts.dto';
import { signedInRecently } from '../recent-sign-in';

export class UpdateSelfCommand extends Command<{ passwordChanged: boolean }> {
  constructor(
    readonly user: SignedInUser,
    readonly body: UpdateSelfBody,
    readonly meta: RequestMeta,
    /** The caller's session (null: a system access token), for the sign-in grace period. */
    readonly session: SessionClaims | null = null,
  ) {
    super();
  }
}

/**
 * Display name and password. A new password needs the current one, except within ten minutes of
 * signing in (new-api's console sends only the new one then); a current password that is sent is
 * always checked, under the guess limit.
 */
@CommandHandler(UpdateSelfCommand)
export class UpdateSelfHandler implements ICommandHandler<UpdateSelfCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
    private readonly attempts: PasswordAttempts,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ user, body, meta, session }: UpdateSelfCommand) {
    const displayName =
      body.display_name === undefined
        ? undefined
        : canonicalDisplayName(body.display_name) || user.username;
    if (displayName !== undefined) assertValidDisplayName(displayName);
    const wantsPassword = body.password !== undefined && body.password !== '';
    if (wantsPassword) {
      assertPasswordRules(body.password!);
      const original = body.original_password ?? '';
      if (original !== '') {
        const { password_hash } = await userDocument(this.readStore, user.id);
        const matches = await this.attempts.check(`self:${user.id}`, () =>
          this.hasher.verify(original, password_hash),
        );
        if (!matches) throw new ApiError('auth.original_password_wrong');
      } else if (!signedInRecently(session, Date.now()))
        throw new ApiError('auth.original_password_required');
    }
    const result = await this.store.execute(
      `user-${user.id}`,
      userDecider,
      {
        type: 'EditUser',
        displayName,
        passwordHash: wantsPassword ? await this.hasher.hash(body.password!) : undefined,
        passwordReason: 'self',
      },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return { passwordChanged: wantsPassword };
  }
}
