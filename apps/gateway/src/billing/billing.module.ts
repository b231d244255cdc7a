import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { BalanceBook } from './balance-book';
import { BalanceLeases } from './balance-leases';
import { BudgetUsage } from './budget-usage';

/**
 * The balance book (hot cache): global, the relay, tokens and user edits read it. BudgetUsage: the
 * budgets' use of the current period on the token and user reads (docs/budgets.md). BalanceLeases:
 * the scale-out leases on the users' balances (inactive in single-process mode).
 */
@Global()
@Module({
  providers: [BalanceBook, BalanceLeases, BudgetUsage],
  exports: [BalanceBook, BalanceLeases, BudgetUsage],
})
export class BillingModule implements OnModuleInit {
  constructor(
    private readonly feed: CacheFeed,
    private readonly book: BalanceBook,
  ) {}

  onModuleInit(): void {
    this.feed.register(this.book);
  }
}
