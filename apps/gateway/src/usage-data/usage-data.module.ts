import { Module } from '@nestjs/common';
import { QuotaDataController } from './quota-data.controller';
import { QuotaDataHandler } from './quota-data.handler';

/** quota_data: hourly usage totals per user × model, from the usage receipts (a projection). */
@Module({ controllers: [QuotaDataController], providers: [QuotaDataHandler] })
export class UsageDataModule {}
