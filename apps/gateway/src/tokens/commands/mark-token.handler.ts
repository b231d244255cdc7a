import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR, tokenDecider } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { StreamCommands } from '../../infrastructure/stream-commands';

const systemMeta = (tokenId: number) => ({
  actor: SYSTEM_ACTOR,
  correlationId: `token-${tokenId}`,
  lang: 'en' as const,
});

/** The relay saw an expired token: record it (system actor; no event when already so). */
export class MarkTokenExpiredCommand extends Command<Position | null> {
  constructor(readonly tokenId: number) {
    super();
  }
}

/** The relay saw a token with no quota left: record it (system actor; idempotent). */
export class MarkTokenExhaustedCommand extends Command<Position | null> {
  constructor(readonly tokenId: number) {
    super();
  }
}

@CommandHandler(MarkTokenExpiredCommand)
export class MarkTokenExpiredHandler implements ICommandHandler<MarkTokenExpiredCommand> {
  constructor(private readonly store: StreamCommands) {}

  async execute({ tokenId }: MarkTokenExpiredCommand): Promise<Position | null> {
    const result = await this.store.execute(
      `token-${tokenId}`,
      tokenDecider,
      { type: 'MarkTokenExpired', tokenId },
      systemMeta(tokenId),
    );
    return result.position;
  }
}

@CommandHandler(MarkTokenExhaustedCommand)
export class MarkTokenExhaustedHandler implements ICommandHandler<MarkTokenExhaustedCommand> {
  constructor(private readonly store: StreamCommands) {}

  async execute({ tokenId }: MarkTokenExhaustedCommand): Promise<Position | null> {
    const result = await this.store.execute(
      `token-${tokenId}`,
      tokenDecider,
      { type: 'MarkTokenExhausted', tokenId },
      systemMeta(tokenId),
    );
    return result.position;
  }
}
