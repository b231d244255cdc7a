import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import type { Decider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';
import { CHANNELS } from '../channel.document';
import { ROUTING_FIX_STREAM, ROUTING_REBUILD_REQUESTED } from '../channels.projection';

export class FixRoutingCommand extends Command<number> {
  constructor(readonly meta: RequestMeta) {
    super();
  }
}

type RebuildRequested = { type: typeof ROUTING_REBUILD_REQUESTED; data: Record<string, never> };

/** Every fix request is recorded; nothing to decide beyond that. */
const fixDecider: Decider<{ type: 'Fix' }, null, RebuildRequested> = {
  initialState: null,
  evolve: () => null,
  decide: () => [{ type: ROUTING_REBUILD_REQUESTED, data: {} }],
};

/**
 * POST /api/channel/fix: the projection recomputes every ability row from the channel documents
 * and the routing table re-derives its index (only projections write read models, so the request
 * is an event). Answers the number of channels.
 */
@CommandHandler(FixRoutingCommand)
export class FixRoutingHandler implements ICommandHandler<FixRoutingCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ meta }: FixRoutingCommand) {
    const result = await this.store.execute(ROUTING_FIX_STREAM, fixDecider, { type: 'Fix' }, meta);
    await this.readYourWrites.waitFor(result.position);
    return this.readStore.collection(CHANNELS).count();
  }
}
