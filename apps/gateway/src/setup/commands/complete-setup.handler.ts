import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Position } from '@tollgate/event-store';
import {
  DomainError,
  assertPasswordRules,
  assertValidUsername,
  canonicalUsername,
  normalizeUsername,
  userDecider,
} from '@tollgate/domain';
import { UniqueClaims } from '../../users/unique-claims';
import { PasswordHasher } from '../../infrastructure/password-hasher';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { UpdateOptionCommand } from '../../options/commands/update-option.handler';
import { ApiError } from '../../shared/api-error';
import type { RequestMeta } from '../../shared/request-meta';
import type { SetupBody } from '../setup.dto';
import { SetupState } from '../setup-state';

/** new-api's minimum for the wizard's password (its own check, before Tollgate's rules). */
const SETUP_PASSWORD_MIN_LENGTH = 8;

export class CompleteSetupCommand extends Command<void> {
  constructor(
    readonly body: SetupBody,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/**
 * POST /api/setup (new-api's first-run wizard), open while the bootstrapped root still has its
 * default password: renames root and sets its password (UserRenamed + UserPasswordChanged
 * reason "setup", one append guarded by the stream revision, so a raced second POST is refused),
 * then sets SelfUseModeEnabled and DemoSiteEnabled. The actor is whoever called (anonymous, IP).
 */
@CommandHandler(CompleteSetupCommand)
export class CompleteSetupHandler implements ICommandHandler<CompleteSetupCommand> {
  constructor(
    private readonly setup: SetupState,
    private readonly store: StreamCommands,
    private readonly claims: UniqueClaims,
    private readonly hasher: PasswordHasher,
    private readonly readYourWrites: ReadYourWrites,
    private readonly commands: CommandBus,
  ) {}

  async execute({ body, meta }: CompleteSetupCommand) {
    const rootId = await this.setup.pendingRoot();
    if (rootId === null) throw new ApiError('setup.done');
    const password = body.password ?? '';
    if (password !== (body.confirmPassword ?? '')) throw new ApiError('setup.password_mismatch');
    if (password.length < SETUP_PASSWORD_MIN_LENGTH) throw new ApiError('setup.password_too_short');
    assertPasswordRules(password);
    const username = canonicalUsername(body.username ?? '');
    assertValidUsername(username);

    const stream = `user-${rootId}`;
    const { state } = await this.store.load(stream, userDecider);
    if (!state.defaultPassword) throw new ApiError('setup.done');
    const [next, previous] = [normalizeUsername(username), normalizeUsername(state.username)];
    const renaming = next !== previous;
    const passwordHash = await this.hasher.hash(password);
    // The new name is claimed first, so a taken name changes nothing; the old one is freed last.
    const claim = renaming
      ? await this.claims.claim('username', next, rootId, 'user.username_taken', meta)
      : null;
    let last: Position | null;
    try {
      const result = await this.store.execute(
        stream,
        userDecider,
        { type: 'CompleteSetup', username, passwordHash },
        meta,
      );
      last = result.position ?? null;
    } catch (error) {
      // Lost a race with another wizard (or the password changed meanwhile): let the name go.
      if (claim && claim.events.length > 0)
        await this.claims.release('username', next, rootId, meta);
      if (error instanceof DomainError && error.code === 'setup.done')
        throw new ApiError('setup.done');
      throw error;
    }
    if (renaming) await this.claims.release('username', previous, rootId, meta);
    await this.readYourWrites.waitFor(last);
    await this.setOption('SelfUseModeEnabled', body.SelfUseModeEnabled === true, meta);
    await this.setOption('DemoSiteEnabled', body.DemoSiteEnabled === true, meta);
  }

  /** An option the wizard sets; already at that value is fine (no event). */
  private async setOption(key: string, value: boolean, meta: RequestMeta) {
    try {
      await this.commands.execute(new UpdateOptionCommand(key, String(value), meta));
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'option.unchanged')) throw error;
    }
  }
}
