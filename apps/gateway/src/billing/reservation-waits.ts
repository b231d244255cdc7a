import type { BalanceBook } from './balance-book';
import type { ReserveResult } from './balance-terms';

interface Waiter {
  readonly args: Parameters<BalanceBook['reserve']>;
  readonly resolve: (result: ReserveResult) => void;
  timer: NodeJS.Timeout | undefined;
  last: ReserveResult;
}

/**
 * Requests whose payer is short only because of reservations still open (the book's `waitable`
 * refusal) wait here for them to settle instead of being refused at once: 50 concurrent calls on a
 * budget for 10 serve 10, not the 5 whose worst-case reservations fit side by side. Each time a
 * user's spendable may have grown (the book's onFreed), that user's waiters try again in arrival
 * order; a waiter is answered as soon as it is reserved, or refused once nothing open is left that
 * could free its floor, or when `waitMs` is over (RELAY_RESERVE_WAIT_MS).
 */
export class ReservationWaits {
  private readonly waiting = new Map<number, Waiter[]>();

  constructor(
    private readonly book: Pick<BalanceBook, 'reserve' | 'onFreed'>,
    private readonly waitMs: number,
  ) {
    book.onFreed((userId) => this.retry(userId));
  }

  /** `refused`: the book's waitable refusal of these arguments, the answer when the wait ends. */
  wait(args: Parameters<BalanceBook['reserve']>, refused: ReserveResult): Promise<ReserveResult> {
    if (this.waitMs <= 0 || refused.ok || !refused.waitable) return Promise.resolve(refused);
    const userId = args[1];
    return new Promise((resolve) => {
      const waiter: Waiter = { args, resolve, timer: undefined, last: refused };
      waiter.timer = setTimeout(() => this.answer(userId, waiter, waiter.last), this.waitMs);
      const queue = this.waiting.get(userId);
      if (queue) queue.push(waiter);
      else this.waiting.set(userId, [waiter]);
    });
  }

  private retry(userId: number): void {
    const queue = this.waiting.get(userId);
    if (!queue) return;
    for (const waiter of [...queue]) {
      const result = this.book.reserve(...waiter.args);
      waiter.last = result;
      if (result.ok || !result.waitable) this.answer(userId, waiter, result);
    }
  }

  private answer(userId: number, waiter: Waiter, result: ReserveResult): void {
    clearTimeout(waiter.timer);
    const queue = this.waiting.get(userId);
    const at = queue?.indexOf(waiter) ?? -1;
    if (at === -1) return;
    queue!.splice(at, 1);
    if (queue!.length === 0) this.waiting.delete(userId);
    waiter.resolve(result);
  }
}
