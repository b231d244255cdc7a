import { Inject } from '@nestjs/common';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { LOGS_STREAM, logDecider } from '@tollgate/domain';
import type { ReadStore } from '@tollgate/read-store';
import { READ_STORE } from '../../infrastructure/injection-tokens';
import { ReadYourWrites } from '../../infrastructure/read-your-writes';
import { StreamCommands } from '../../infrastructure/stream-commands';
import type { RequestMeta } from '../../shared/request-meta';
import { logStore } from '../log-store';

/** DELETE /api/log/?target_timestamp=: root clears rows before that time; answers how many. */
export class ClearLogsCommand extends Command<number> {
  constructor(
    readonly before: number,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** Recorded as LogsCleared on the `logs` stream: the read model forgets, the history keeps who. */
@CommandHandler(ClearLogsCommand)
export class ClearLogsHandler implements ICommandHandler<ClearLogsCommand> {
  constructor(
    private readonly store: StreamCommands,
    private readonly readYourWrites: ReadYourWrites,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
  ) {}

  async execute({ before, meta }: ClearLogsCommand): Promise<number> {
    const count = await logStore(this.readStore).count({ created_at: { $lt: before } });
    const result = await this.store.execute(
      LOGS_STREAM,
      logDecider,
      { type: 'ClearLogs', before, count },
      meta,
    );
    await this.readYourWrites.waitFor(result.position);
    return count;
  }
}
