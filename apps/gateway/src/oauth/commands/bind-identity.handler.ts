import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  DomainError,
  IDENTITY_GUARD_KIND,
  IDENTITY_TAKEN_CODE,
  identityGuardValue,
  userDecider,
  type ExternalProvider,
} from '@tollgate/domain';
import { UniqueClaims } from '../../users/unique-claims';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';

export class BindIdentityCommand extends Command<{ bound: boolean }> {
  constructor(
    readonly userId: number,
    readonly provider: ExternalProvider,
    readonly externalId: string,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * Binds a provider id to a signed-in user: the guard `<kind>-<id>` is claimed first (a second user
 * gets "already bound"), then UserExternalIdentityBound goes on the user's stream. When the user
 * stream refuses (another id of that provider is bound already), the claim is let go again.
 */
@CommandHandler(BindIdentityCommand)
export class BindIdentityHandler implements ICommandHandler<BindIdentityCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly claims: UniqueClaims,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ userId, provider, externalId, meta }: BindIdentityCommand) {
    const id = externalId.trim();
    const stream = `user-${userId}`;
    // Refused before any claim when the answer is known already (no guard appended for nothing).
    const { state } = await this.store.load(stream, userDecider);
    const current = state.identities?.[provider];
    if (current === id) return { bound: false };
    if (current) throw new DomainError('oauth.provider_already_bound', { provider });
    const [kind, value] = [IDENTITY_GUARD_KIND[provider], identityGuardValue(id)];
    const claim = await this.claims.claim(kind, value, userId, IDENTITY_TAKEN_CODE[provider], meta);
    try {
      const result = await this.store.execute(
        stream,
        userDecider,
        { type: 'BindExternalIdentity', provider, externalId: id },
        meta,
      );
      await this.readYourWrites.waitFor(result.position);
      return { bound: result.events.length > 0 };
    } catch (error) {
      if (claim.events.length > 0) await this.claims.release(kind, value, userId, meta);
      throw error;
    }
  }
}
