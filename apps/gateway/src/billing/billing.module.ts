import { Global, Module, type OnModuleInit } from '@nestjs/common';
import { CacheFeed } from '../infrastructure/hot-caches/cache-feed';
import { BalanceBook } from './balance-book';

/** The balance book (hot cache): global, the relay, tokens and user edits read it. */
@Global()
@Module({ providers: [BalanceBook], exports: [BalanceBook] })
export class BillingModule implements OnModuleInit {
  constructor(
    private readonly feed: CacheFeed,
    private readonly book: BalanceBook,
  ) {}

  onModuleInit(): void {
    this.feed.register(this.book);
  }
}
