import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import {
  SYSTEM_ACTOR,
  taskDecider,
  taskStreamId,
  type RequestRelayed,
  type TaskFailureCause,
  type TaskSnapshot,
  type TaskSubmitted,
} from '@tollgate/domain';
import type { Position } from '@tollgate/event-store';
import { StreamCommands } from '../infrastructure/stream-commands';
import type { RequestMeta } from '../shared/request-meta';

/** What the poller and the start-up sweep record as: the system, not a user. */
export const TASK_SYSTEM_META: RequestMeta = {
  actor: SYSTEM_ACTOR,
  correlationId: 'task-poller',
  lang: 'zh-CN',
};

/**
 * Records a submission and its charge in one append on `task-<id>`. The command id derives from the
 * task id, so a retried append records nothing twice. Answers the position (null when it was
 * already recorded).
 */
export class SubmitTaskCommand extends Command<Position | null> {
  constructor(
    readonly task: TaskSubmitted['data'],
    readonly charge: RequestRelayed['data'] | undefined,
    readonly meta: RequestMeta,
  ) {
    super();
  }
}

/** What the task's upstream answered about it when polled (nothing else records a snapshot). */
export class RecordTaskSnapshotCommand extends Command<Position | null> {
  constructor(
    readonly taskId: string,
    readonly snapshot: TaskSnapshot,
  ) {
    super();
  }
}

/** The gateway gives up on an open task (timeout, channel gone): failed and refunded. */
export class FailTaskCommand extends Command<Position | null> {
  constructor(
    readonly taskId: string,
    readonly cause: Exclude<TaskFailureCause, 'upstream'>,
    readonly reason: string,
  ) {
    super();
  }
}

@CommandHandler(SubmitTaskCommand)
export class SubmitTaskHandler implements ICommandHandler<SubmitTaskCommand> {
  constructor(private readonly store: StreamCommands) {}

  async execute({ task, charge, meta }: SubmitTaskCommand): Promise<Position | null> {
    const result = await this.store.execute(
      taskStreamId(task.taskId),
      taskDecider,
      { type: 'SubmitTask', task, ...(charge ? { charge } : {}) },
      meta,
      { commandId: `task-submit:${task.taskId}` },
    );
    return result.position;
  }
}

@CommandHandler(RecordTaskSnapshotCommand)
export class RecordTaskSnapshotHandler implements ICommandHandler<RecordTaskSnapshotCommand> {
  constructor(private readonly store: StreamCommands) {}

  async execute({ taskId, snapshot }: RecordTaskSnapshotCommand): Promise<Position | null> {
    const result = await this.store.execute(
      taskStreamId(taskId),
      taskDecider,
      { type: 'RecordTaskSnapshot', snapshot },
      TASK_SYSTEM_META,
    );
    return result.position;
  }
}

@CommandHandler(FailTaskCommand)
export class FailTaskHandler implements ICommandHandler<FailTaskCommand> {
  constructor(private readonly store: StreamCommands) {}

  async execute({ taskId, cause, reason }: FailTaskCommand): Promise<Position | null> {
    const result = await this.store.execute(
      taskStreamId(taskId),
      taskDecider,
      { type: 'FailTask', cause, reason },
      TASK_SYSTEM_META,
    );
    return result.position;
  }
}
