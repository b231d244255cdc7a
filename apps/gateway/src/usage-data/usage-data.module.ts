import { Module } from '@nestjs/common';
import { QuotaDataController } from './quota-data.controller';
import { QuotaDataHandler } from './quota-data.handler';
import { FailureRatesHandler } from './failure-rates.handler';

/**
 * quota_data: hourly usage totals per user × model, from the usage receipts (a projection); the
 * failure rates per channel and per model, from the receipts and the failed calls.
 */
@Module({ controllers: [QuotaDataController], providers: [QuotaDataHandler, FailureRatesHandler] })
export class UsageDataModule {}
