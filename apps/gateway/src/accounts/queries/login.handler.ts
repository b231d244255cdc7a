import { Inject } from '@nestjs/common';
import { CommandBus, Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { isRoot, UserStatus, type LoginResultDto } from '@tollgate/contracts';
import { loginResultOf } from '../login-result';
import { RehashPasswordCommand } from '../commands/rehash-password.handler';
import { normalizeEmail, normalizeUsername } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { PasswordAttempts } from '../../auth/password-attempts';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { isLegacyPasswordHash, PasswordHasher } from '../../infrastructure/password-hasher';
import { OptionsCache } from '../../options/options.cache';
import { USERS, type UserDocument } from '../../users/user.document';
import { ApiError } from '../../shared/api-error';
import { DEFAULT_ROOT_PASSWORD } from '../root-account';

export class LoginQuery extends Query<LoginResultDto> {
  constructor(
    readonly username: string,
    readonly password: string,
  ) {
    super();
  }
}

/** Checks the password against the read model; the controller then sets the session cookie. */
@QueryHandler(LoginQuery)
export class LoginHandler implements IQueryHandler<LoginQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly hasher: PasswordHasher,
    private readonly options: OptionsCache,
    private readonly attempts: PasswordAttempts,
    private readonly commands: CommandBus,
  ) {}

  async execute({ username, password }: LoginQuery): Promise<LoginResultDto> {
    if (!username || !password) throw new ApiError('auth.credentials_required');
    if (!this.options.bool('PasswordLoginEnabled'))
      throw new ApiError('auth.password_login_disabled');
    const user = await this.findAccount(username);
    // Same answer and the same argon2 work for unknown users, wrong passwords and banned users (as
    // new-api answers): neither the message nor the time tells whether an account exists or the
    // password was right. Failures count per login name; a banned user's right password is one.
    const matches = await this.attempts.check(`login:${normalizeUsername(username)}`, async () =>
      user
        ? (await this.hasher.verify(password, user.password_hash)) &&
          user.status === UserStatus.Enabled
        : this.hasher.verifyNothing(password),
    );
    if (!user || !matches) throw new ApiError('auth.wrong_credentials');
    // An imported bcrypt hash that just verified is replaced by our own (an event, not a read).
    // A failed rehash is retried at the next sign-in; it never fails this one.
    if (isLegacyPasswordHash(user.password_hash))
      await this.commands
        .execute(new RehashPasswordCommand(user.id, password))
        .catch(() => undefined);
    return loginResultOf(user, isRoot(user.role) && password === DEFAULT_ROOT_PASSWORD);
  }

  /**
   * By username, or by email when exactly one active account has verified that address: an
   * unverified address is only what someone typed, possibly someone else's.
   */
  private async findAccount(login: string): Promise<UserDocument | null> {
    const users = this.readStore.collection<UserDocument>(USERS);
    const byName = await users.findOne({
      username_lower: normalizeUsername(login),
      DeletedAt: null,
    });
    if (byName || !login.includes('@')) return byName;
    const byEmail = await users.find(
      { email: normalizeEmail(login), email_verified: true, DeletedAt: null },
      { limit: 2 },
    );
    return byEmail.length === 1 ? byEmail[0]! : null;
  }
}
