import { Injectable } from '@nestjs/common';
import type { BudgetPeriodName } from '@tollgate/contracts';
import { isBudgetPeriod, periodEndMs, periodStartMs } from '@tollgate/domain';
import { BalanceAt } from '../history/balance-at';
import { defaultTimeZone } from './time-zone';

export interface BudgetFields {
  period_quota: number;
  period: BudgetPeriodName;
  period_used: number;
  period_reset_at: number;
}

/**
 * The read side of budgets (docs/budgets.md): what a user or token spent in the current period,
 * summed at query time from ledger_usage (hours + seconds, as the balance-at routes:
 * consumed(now) − consumed(period start − 1 s)), so nothing is written per request. Rows without a
 * budget cost nothing.
 */
@Injectable()
export class BudgetUsage {
  constructor(private readonly balanceAt: BalanceAt) {}

  async of(
    subject: 'u' | 't',
    id: number,
    row: { period_quota: number; period: BudgetPeriodName },
    nowMs = Date.now(),
    timeZone = defaultTimeZone(),
  ): Promise<BudgetFields> {
    const { period_quota, period } = row;
    if (!isBudgetPeriod(period) || period_quota <= 0)
      return { period_quota: 0, period: '', period_used: 0, period_reset_at: 0 };
    const start = Math.floor(periodStartMs(period, nowMs, timeZone) / 1000);
    const end = Math.floor(periodEndMs(period, nowMs, timeZone) / 1000);
    const now = Math.floor(nowMs / 1000);
    const [total, before] = await Promise.all([
      this.balanceAt.consumed(subject, id, now),
      this.balanceAt.consumed(subject, id, start - 1),
    ]);
    return {
      period_quota,
      period,
      // A refund of an earlier period's charge can make the difference negative: none used.
      period_used: Math.max(0, total.quota - before.quota),
      period_reset_at: end,
    };
  }

  /** The rows with their budget's use filled in (only those with a budget are summed). */
  async fill<T extends BudgetFields & { id: number }>(subject: 'u' | 't', rows: T[]): Promise<T[]> {
    const nowMs = Date.now();
    return Promise.all(
      rows.map(async (row) =>
        row.period_quota > 0 ? { ...row, ...(await this.of(subject, row.id, row, nowMs)) } : row,
      ),
    );
  }
}
