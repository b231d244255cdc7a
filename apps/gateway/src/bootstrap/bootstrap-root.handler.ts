import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { Role } from '@tollgate/contracts';
import { DomainError, SYSTEM_ACTOR, billingDecider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { UserRegistrar } from '../users/user-registrar';
import { READ_STORE } from '../infrastructure/injection-tokens';
import { USERS } from '../users/user.document';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import {
  DEFAULT_ROOT_PASSWORD,
  ROOT_STARTING_QUOTA,
  ROOT_USERNAME,
} from '../accounts/root-account';
import { StreamCommands } from '../infrastructure/stream-commands';

export class BootstrapRootCommand extends Command<void> {}

/**
 * First start (no user exists): root / 123456 with ROOT_STARTING_QUOTA, recorded as events by the
 * system actor.
 */
@CommandHandler(BootstrapRootCommand)
export class BootstrapRootHandler implements ICommandHandler<BootstrapRootCommand> {
  private readonly logger = new Logger('RootBootstrap');

  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly registrar: UserRegistrar,
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute(): Promise<void> {
    // No user document at all (not "no id ever allocated"): a first start that crashed after
    // taking an id but before registering root must still create it.
    if ((await this.readStore.collection(USERS).count({})) > 0) return;
    try {
      const meta = { actor: SYSTEM_ACTOR, correlationId: randomUUID(), lang: 'en' } as const;
      const { userId, position } = await this.registrar.register(
        {
          username: ROOT_USERNAME,
          password: DEFAULT_ROOT_PASSWORD,
          role: Role.Root,
          source: 'bootstrap',
        },
        meta,
      );
      const granted = await this.store.execute(
        `billing-${userId}`,
        billingDecider,
        { type: 'GrantQuota', userId, amount: ROOT_STARTING_QUOTA, reason: 'root_start' },
        meta,
        { commandId: `root-start:${userId}` },
      );
      await this.readYourWrites.waitFor(granted.position ?? position);
      this.logger.warn(
        `Created the root account (${ROOT_USERNAME} / ${DEFAULT_ROOT_PASSWORD}): change its password now`,
      );
    } catch (error) {
      // Another gateway process bootstrapped at the same moment: its root wins.
      if (!(error instanceof DomainError && error.code === 'user.username_taken')) throw error;
    }
  }
}
