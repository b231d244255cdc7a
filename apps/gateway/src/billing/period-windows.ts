/**
 * The budgets' periods: the current day, week and month in the server's zone, and what an account
 * spent in each of them.
 */
import { type BudgetPeriod, periodEndMs, periodStartMs, withFields } from '@tollgate/domain';
import type { BudgetRefusal, LimitReason, QuotaRefusal, ReserveResult } from './balance-terms';

const PERIODS: readonly BudgetPeriod[] = ['day', 'week', 'month'];
const PERIOD_INDEX: Readonly<Record<BudgetPeriod, number>> = { day: 0, week: 1, month: 2 };

/**
 * What a user or a token was charged in the current day, week and month (index as PERIODS): the
 * sum of a period is valid while its start is the current window's start, else it is 0 (a new
 * period began: reset lazily, no job). Kept for every account so that a budget set mid-period
 * counts what was spent since the period began, as the read side (ledger_usage) does.
 */
export interface PeriodSpend {
  readonly starts: number[];
  readonly spent: number[];
}
export const newSpend = (): PeriodSpend => ({ starts: [NaN, NaN, NaN], spent: [0, 0, 0] });

/** An account a budget may limit: a user or a token. */
export interface Budgeted {
  /** Quota units per period; 0 = no budget (the only field the hot path checks). */
  budgetQuota: number;
  budgetPeriod: BudgetPeriod;
  readonly spend: PeriodSpend;
  reserved: number;
}

interface Window {
  start: number;
  end: number;
}

/**
 * The current day, week and month (same for every account: one zone), moved forward lazily. They
 * start at the given present, so the start-up replay drops the charges of earlier periods with
 * one comparison instead of walking the windows through the log's whole history.
 */
export class PeriodWindows {
  private readonly windows: Window[] = PERIODS.map(() => ({ start: -Infinity, end: -Infinity }));

  constructor(
    at: number,
    private timeZone: string,
  ) {
    this.reset(at, timeZone);
  }

  get zone(): string {
    return this.timeZone;
  }

  /** The windows of `at` in `timeZone` (a new clock or zone). */
  reset(at: number, timeZone: string): void {
    this.timeZone = timeZone;
    PERIODS.forEach((period, i) => {
      this.windows[i] = {
        start: periodStartMs(period, at, timeZone),
        end: periodEndMs(period, at, timeZone),
      };
    });
  }

  /** What `spend` holds for `period` at `at` and when that period ends. */
  use(
    spend: PeriodSpend | undefined,
    period: BudgetPeriod,
    at: number,
  ): { readonly used: number; readonly resetAt: number } {
    const index = PERIOD_INDEX[period];
    const window = this.current(index, at);
    const used = spend && spend.starts[index] === window.start ? spend.spent[index]! : 0;
    return { used, resetAt: window.end };
  }

  /** The current window of `period` at `at`: [start, end) in ms since the epoch. */
  window(period: BudgetPeriod, at: number): { readonly start: number; readonly end: number } {
    const { start, end } = this.current(PERIOD_INDEX[period], at);
    return { start, end };
  }

  /** What is left of `subject`'s budget at `at`: less what it spent and holds reserved. */
  budgetLeft(subject: Budgeted, at: number): number {
    const index = PERIOD_INDEX[subject.budgetPeriod];
    const window = this.current(index, at);
    const spent = subject.spend.starts[index] === window.start ? subject.spend.spent[index]! : 0;
    return subject.budgetQuota - spent - subject.reserved;
  }

  /** The refusal of a request the budget of a user or token has no room for. */
  budgetRefusal(subject: Budgeted, reason: BudgetRefusal['reason'], at: number): BudgetRefusal {
    const window = this.current(PERIOD_INDEX[subject.budgetPeriod], at);
    return {
      ok: false,
      reason,
      limit: subject.budgetQuota,
      period: subject.budgetPeriod,
      resetAt: window.end,
    };
  }

  /**
   * The refusal when `subject` has only `free` of the `least` a request needs (at `at`): waitable
   * when its open reservations could make that fit once they settle.
   */
  refusal(
    reason: LimitReason,
    subject: Budgeted,
    free: number,
    least: number,
    at: number,
  ): Extract<ReserveResult, { ok: false }> {
    const refusal: QuotaRefusal | BudgetRefusal =
      reason === 'user_quota' || reason === 'token_quota'
        ? { ok: false, reason }
        : this.budgetRefusal(subject, reason, at);
    return subject.reserved > 0 && free + subject.reserved >= least
      ? withFields(refusal, { waitable: true })
      : refusal;
  }

  /** Adds a charge made at `at` to the current periods (one of an earlier period counts in none). */
  count(spend: PeriodSpend, amount: number, at: number): void {
    for (let i = 0; i < PERIODS.length; i++) {
      const window = this.current(i, at);
      if (at < window.start) continue;
      if (spend.starts[i] !== window.start) {
        spend.starts[i] = window.start;
        spend.spent[i] = 0;
      }
      // A refund gives back at most what the period holds.
      spend.spent[i] = Math.max(0, spend.spent[i]! + amount);
    }
  }

  /** The window of period `index` at `at`, moved forward when `at` passed its end (never back). */
  private current(index: number, at: number): Window {
    const window = this.windows[index]!;
    if (at >= window.end) {
      const period = PERIODS[index]!;
      window.start = periodStartMs(period, at, this.timeZone);
      window.end = periodEndMs(period, at, this.timeZone);
    }
    return window;
  }
}
