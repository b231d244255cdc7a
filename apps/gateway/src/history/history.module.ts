import { Module } from '@nestjs/common';
import { BalanceAt } from './balance-at';
import { HistoryController } from './history.controller';
import { HistoryReader } from './history-reader';
import { LedgerCheck } from './ledger-check';

/** Audit history, balances at an instant and the ledger check (docs/history.md). */
@Module({
  controllers: [HistoryController],
  providers: [HistoryReader, BalanceAt, LedgerCheck],
})
export class HistoryModule {}
