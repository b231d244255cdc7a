import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { BalanceBook } from './balance-book';
import { BudgetUsage } from './budget-usage';

/**
 * The balance book (hot cache): global, the relay, tokens and user edits read it. BudgetUsage: the
 * budgets' use of the current period on the token and user reads (docs/budgets.md).
 */
@Global()
@Module({
  providers: [BalanceBook, BudgetUsage],
  exports: [BalanceBook, BudgetUsage],
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
