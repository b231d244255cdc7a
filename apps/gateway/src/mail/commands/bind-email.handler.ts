import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { normalizeEmail, userDecider } from '@tollgate/domain';
import { assertEmailAllowed } from '../email-policy';
import { UniqueClaims } from '../../users/unique-claims';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { OptionsCache } from '../../options/options.cache';
import type { SignedInUser } from '../../auth/signed-in-user';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import { EmailCodes } from '../email-codes';

export class BindEmailCommand extends Command<void> {
  constructor(
    readonly user: SignedInUser,
    readonly email: string,
    readonly code: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * `GET /api/oauth/email/bind`: the signed-in user proves an address by its mailed code. The
 * address's guard (`email-<address>`) is claimed first, so two accounts cannot bind one address
 * even at once; then UserEmailBound; then the replaced address's guard is released (a crash in
 * between leaves it to start-up recovery, like a rename).
 */
@CommandHandler(BindEmailCommand)
export class BindEmailHandler implements ICommandHandler<BindEmailCommand> {
  constructor(
    private readonly codes: EmailCodes,
    private readonly claims: UniqueClaims,
    private readonly store: StreamCommands,
    private readonly options: OptionsCache,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ user, email: raw, code, meta }: BindEmailCommand): Promise<void> {
    const email = normalizeEmail(raw);
    if (!email || !code) throw new ApiError('common.invalid_params');
    assertEmailAllowed(email, this.options);
    if (!(await this.codes.check('verify', email, code, meta)))
      throw new ApiError('auth.verification_code_invalid');
    const { position: claimed } = await this.claims.claim(
      'email',
      email,
      user.id,
      'mail.email_taken',
      meta,
    );
    let bound;
    try {
      bound = await this.store.execute(
        `user-${user.id}`,
        userDecider,
        { type: 'BindEmail', email },
        meta,
      );
    } catch (error) {
      // Only a claim this request made is let go; one held from before stays.
      if (claimed) await this.claims.release('email', email, user.id, meta);
      throw error;
    }
    await this.codes.consume('verify', email, code, meta);
    const previous =
      bound.events[0]?.type === 'UserEmailBound' ? bound.events[0].data.previous : '';
    const released =
      previous && normalizeEmail(previous) !== email
        ? await this.claims.release('email', normalizeEmail(previous), user.id, meta)
        : null;
    await this.readYourWrites.waitFor(released?.position ?? bound.position ?? claimed);
  }
}
