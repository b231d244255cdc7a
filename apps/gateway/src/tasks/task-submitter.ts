import { Inject, Injectable, Logger } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RequestRelayed, TaskSubmitted } from '@tollgate/domain';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import {
  leasesOf,
  type Reservation,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';
import { taskMeta, type TaskRequest } from './task-request';
import { SubmitTaskCommand } from './task.commands';

/**
 * The recording half of a task submission, on the relay's no-overdraft path: the price was reserved
 * on the user and the token before the upstream was called (task-submit-pipeline.ts); once the
 * upstream took the task, the submission and its receipt are appended together and the
 * reservation is settled; otherwise it is released. A crash between the upstream's answer and the
 * append loses the record and the charge together (under-billing, as the relay's crash rule),
 * never one without the other.
 */
@Injectable()
export class TaskSubmitter {
  private readonly logger = new Logger(TaskSubmitter.name);

  constructor(
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly bus: CommandBus,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  release(reservation: Reservation | undefined): void {
    if (reservation) this.relay.release(reservation);
  }

  /**
   * Records the submission (and the charge when `charge` is given), settles or releases the
   * reservation, and answers once the read models and caches show it (the client's next fetch
   * finds the task). Never throws: a failed append is logged and the reservation released.
   */
  async record(
    task: TaskSubmitted['data'],
    charge: RequestRelayed['data'] | undefined,
    reservation: Reservation | undefined,
    request: TaskRequest,
  ): Promise<void> {
    const trace = request.trace;
    trace.model = task.model;
    trace.channelId = task.channelId;
    trace.quota = charge?.quota ?? 0;
    // Scale-out: the receipt names the leases it was spent from (the other processes count it).
    const receipt = charge && reservation ? { ...charge, ...leasesOf(reservation) } : charge;
    try {
      const position = await this.bus.execute(
        new SubmitTaskCommand(task, receipt, taskMeta(request)),
      );
      if (reservation && charge) this.relay.settle(reservation, charge.quota);
      else this.release(reservation);
      await this.readYourWrites.waitFor(position);
    } catch (error) {
      this.release(reservation);
      this.logger.error(`task ${task.taskId} not recorded: ${String(error)}`);
    }
  }
}
