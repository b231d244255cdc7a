import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Role, UserStatus, type LoginResultDto } from '@tollgate/contracts';
import { DomainError, IDENTITY_FIELD } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { loginResultOf } from '../../accounts/login-result';
import { UserRegistrar } from '../../users/user-registrar';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { randomAlphanumeric } from '../../infrastructure/random-text';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { OptionsCache } from '../../options/options.cache';
import { USERS, type UserDocument } from '../../users/user.document';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { ExternalProfile } from '../external-profile';
import { displayNameFrom, usernameCandidates } from '../oauth-username';

/** Nobody knows it: an account made by a provider signs in through that provider. */
const UNUSED_PASSWORD_LENGTH = 32;

export class SignInWithIdentityCommand extends Command<{
  user: LoginResultDto;
  registered: boolean;
}> {
  constructor(
    readonly profile: ExternalProfile,
    readonly meta: RequestMeta,
    /** An invitation code carried by the OAuth state (GET /api/oauth/state?aff=). */
    readonly affCode = '',
  ) {
    super();
  }
}

/**
 * Sign-in through a provider: the user bound to that provider id, or (when registration is open) a
 * new user registered with the id bound in the same registration. The controller sets the session.
 */
@CommandHandler(SignInWithIdentityCommand)
export class SignInWithIdentityHandler implements ICommandHandler<SignInWithIdentityCommand> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly registrar: UserRegistrar,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ profile, meta, affCode }: SignInWithIdentityCommand) {
    const users = this.readStore.collection<UserDocument>(USERS);
    const field = IDENTITY_FIELD[profile.provider];
    const bound = await users.findOne({ [field]: profile.externalId });
    if (bound) return { user: this.signIn(bound), registered: false };
    if (!this.options.bool('RegisterEnabled')) throw new ApiError('auth.register_disabled');
    const userId = await this.register(profile, meta, affCode);
    const user = await users.get(String(userId));
    if (!user) throw new ApiError('common.busy');
    return { user: this.signIn(user), registered: true };
  }

  private signIn(user: UserDocument): LoginResultDto {
    if (user.DeletedAt !== null) throw new ApiError('user.deregistered');
    if (user.status !== UserStatus.Enabled) throw new ApiError('auth.user_disabled');
    return loginResultOf(user);
  }

  /** Tries the provider's login as the username, then variations, until one is free. */
  private async register(
    profile: ExternalProfile,
    meta: RequestMeta,
    affCode: string,
  ): Promise<number> {
    const displayName = displayNameFrom(profile.displayName);
    let lastError: DomainError | null = null;
    for (const username of usernameCandidates(profile.provider, profile.login)) {
      try {
        const { userId, position } = await this.registrar.register(
          {
            username,
            password: randomAlphanumeric(UNUSED_PASSWORD_LENGTH),
            displayName,
            role: Role.Common,
            source: profile.provider,
            ...(affCode ? { affCode } : {}),
            identity: { provider: profile.provider, externalId: profile.externalId },
          },
          meta,
        );
        await this.readYourWrites.waitFor(position);
        return userId;
      } catch (error) {
        if (!(error instanceof DomainError && error.code === 'user.username_taken')) throw error;
        lastError = error;
      }
    }
    throw lastError ?? new ApiError('common.busy');
  }
}
