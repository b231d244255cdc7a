import { Inject, Injectable } from '@nestjs/common';
import type { LedgerReportDto } from '@tollgate/contracts';
import type { EventStore } from '@tollgate/event-store';
import type { ReadStore } from '@tollgate/read-store';
import { BalanceBook } from '../billing/balance-book';
import { EVENT_STORE, READ_STORE } from '../infrastructure/injection-tokens';
import { ReadYourWrites } from '../infrastructure/read-your-writes';
import { ApiError } from '../shared/api-error';
import { verifyLedger } from './verify-ledger';

/**
 * The ledger check inside a running gateway (root's endpoint): scans the log a chunk at a time
 * (the relay keeps its event loop), waits for the projections and the hot caches to reach the
 * scanned head, then compares with the read models and the live balance book. One at a time.
 */
@Injectable()
export class LedgerCheck {
  private running = false;

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly book: BalanceBook,
    private readonly readYourWrites: ReadYourWrites,
  ) {}

  async run(): Promise<LedgerReportDto> {
    if (this.running) throw new ApiError('history.verify_running');
    this.running = true;
    try {
      return await verifyLedger(this.events, this.readStore, {
        book: this.book,
        beforeCompare: (head) => this.readYourWrites.waitFor(head),
      });
    } finally {
      this.running = false;
    }
  }
}
