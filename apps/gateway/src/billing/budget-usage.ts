import { Injectable } from '@nestjs/common';
import type { BudgetPeriodName } from '@tollgate/contracts';
import { isBudgetPeriod } from '@tollgate/domain';
import { BalanceBook } from './balance-book';

export interface BudgetFields {
  period_quota: number;
  period: BudgetPeriodName;
  period_used: number;
  period_reset_at: number;
}

/**
 * The read side of budgets (docs/budgets.md): what a user or token spent in the current period,
 * read from the balance book — the very figure its reservations are held against, kept in memory
 * from the log, so a page of rows costs no query. Rows without a budget are left as they are.
 */
@Injectable()
export class BudgetUsage {
  constructor(private readonly book: BalanceBook) {}

  /** The rows with their budget's use filled in. */
  fill<T extends BudgetFields & { id: number }>(kind: 'user' | 'token', rows: T[]): T[] {
    return rows.map((row) => {
      if (!isBudgetPeriod(row.period) || row.period_quota <= 0) return row;
      const use = this.book.periodUse(kind, row.id, row.period);
      // Object.assign rather than a spread first: see withFields (a row has no `__proto__` key).
      return Object.assign({}, row, {
        period_used: use.used,
        period_reset_at: Math.floor(use.resetAt / 1000),
      });
    });
  }
}
