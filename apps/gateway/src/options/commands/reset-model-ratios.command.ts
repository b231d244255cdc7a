import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { OPTIONS_STREAM, optionsDecider } from '@tollgate/domain';
import { StreamCommands } from '../../infrastructure/stream-commands';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import type { RequestMeta } from '../../shared/request-meta';

export class ResetModelRatiosCommand extends Command<void> {
  constructor(readonly meta: RequestMeta) {
    super();
  }
}

/** POST /api/option/rest_model_ratio: ModelRatio, CompletionRatio and ModelPrice back to defaults. */
@CommandHandler(ResetModelRatiosCommand)
export class ResetModelRatiosHandler implements ICommandHandler<ResetModelRatiosCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async execute({ meta }: ResetModelRatiosCommand) {
    const result = await this.store.execute(
      OPTIONS_STREAM,
      optionsDecider,
      { type: 'ResetModelRatios' },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
  }
}
