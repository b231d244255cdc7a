import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { SYSTEM_ACTOR, tokenDecider, type TokenCommand } from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { StreamCommands } from '../../infrastructure/stream-commands';

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

type Mark = Extract<TokenCommand, { type: 'MarkTokenExpired' | 'MarkTokenExhausted' }>;

async function mark(store: StreamCommands, command: Mark): Promise<Position | null> {
  const meta = {
    actor: SYSTEM_ACTOR,
    correlationId: `token-${command.tokenId}`,
    lang: 'en' as const,
  };
  return (await store.execute(`token-${command.tokenId}`, tokenDecider, command, meta)).position;
}

@CommandHandler(MarkTokenExpiredCommand)
export class MarkTokenExpiredHandler implements ICommandHandler<MarkTokenExpiredCommand> {
  constructor(private readonly store: StreamCommands) {}

  execute({ tokenId }: MarkTokenExpiredCommand): Promise<Position | null> {
    return mark(this.store, { type: 'MarkTokenExpired', tokenId });
  }
}

@CommandHandler(MarkTokenExhaustedCommand)
export class MarkTokenExhaustedHandler implements ICommandHandler<MarkTokenExhaustedCommand> {
  constructor(private readonly store: StreamCommands) {}

  execute({ tokenId }: MarkTokenExhaustedCommand): Promise<Position | null> {
    return mark(this.store, { type: 'MarkTokenExhausted', tokenId });
  }
}
