import { Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { DisableChannelAutomaticallyCommand } from '../channels/commands/automatic-status.handler';
import {
  MarkTokenExhaustedCommand,
  MarkTokenExpiredCommand,
} from '../tokens/commands/mark-token.handler';
import type { RelayCommandsPort } from './relay-ports';

/** The relay's state changes go through the owning modules' commands (events, with a reason). */
@Injectable()
export class RelayCommands implements RelayCommandsPort {
  constructor(private readonly bus: CommandBus) {}

  markTokenExpired(tokenId: number): Promise<unknown> {
    return this.bus.execute(new MarkTokenExpiredCommand(tokenId));
  }

  markTokenExhausted(tokenId: number): Promise<unknown> {
    return this.bus.execute(new MarkTokenExhaustedCommand(tokenId));
  }

  disableChannel(channelId: number, reason: string, model?: string): Promise<unknown> {
    return this.bus.execute(
      new DisableChannelAutomaticallyCommand(channelId, reason, undefined, model),
    );
  }
}
