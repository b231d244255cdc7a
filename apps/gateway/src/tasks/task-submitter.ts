import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { RequestRelayed, TaskSubmitted } from '@tollgate/domain';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import type { RelayError } from '@tollgate/relay';
import { budgetRefusal, isBudgetRefusal } from '../relay/budget-refusal';
import type { Caller } from '../relay/relay-admission';
import type { Lang } from '../shared/i18n/messages';
import {
  BALANCE_BOOK_PORT,
  BALANCE_LEASES_PORT,
  type BalanceBookPort,
  type BalanceLeasesPort,
  leasesOf,
  type Reservation,
} from '../relay/relay-ports';
import { taskMeta, type TaskRequest } from './task-request';
import { SubmitTaskCommand } from './task.commands';

export type TaskReservation =
  | { readonly ok: true; readonly reservation: Reservation | undefined }
  | { readonly ok: false; readonly reason: 'user_quota' | 'token_quota' }
  /** A periodic budget would be passed: answered 429 `budget_exceeded` (docs/budgets.md). */
  | { readonly ok: false; readonly reason: 'budget'; readonly error: RelayError };

/**
 * The billing half of a task submission, on the relay's no-overdraft path: the price is reserved
 * on the user and the token before the upstream is called; once the upstream took the task, the
 * submission and its receipt are appended together and the reservation is settled; otherwise it
 * is released. A crash between the upstream's answer and the append loses the record and the
 * charge together (under-billing, as the relay's crash rule), never one without the other.
 */
@Injectable()
export class TaskSubmitter {
  private readonly logger = new Logger(TaskSubmitter.name);

  constructor(
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    private readonly bus: CommandBus,
    private readonly readYourWrites: ReadYourWrites,
    @Optional() @Inject(BALANCE_LEASES_PORT) private readonly leases?: BalanceLeasesPort,
  ) {}

  async reserve(
    requestId: string,
    caller: Caller,
    quota: number,
    lang: Lang,
  ): Promise<TaskReservation> {
    if (quota <= 0) return { ok: true, reservation: undefined };
    const args = [requestId, caller.user.id, caller.token?.id ?? 0, quota] as const;
    // Scale-out: the reserve takes the lease this process lacks first.
    const result = this.leases?.active
      ? await this.leases.reserve(...args)
      : this.book.reserve(...args);
    if (result.ok) return { ok: true, reservation: result.reservation };
    if (isBudgetRefusal(result))
      return { ok: false, reason: 'budget', error: budgetRefusal(lang, result) };
    return { ok: false, reason: result.reason };
  }

  release(reservation: Reservation | undefined): void {
    if (reservation) this.book.release(reservation);
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
      if (reservation && charge) this.book.settle(reservation, charge.quota);
      else this.release(reservation);
      await this.readYourWrites.waitFor(position);
    } catch (error) {
      this.release(reservation);
      this.logger.error(`task ${task.taskId} not recorded: ${String(error)}`);
    }
  }
}
