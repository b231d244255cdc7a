import { Module } from '@nestjs/common';
import { QuotaDataController } from './quota-data.controller';
import { QuotaDataHandler } from './quota-data.handler';
import { FailureRatesHandler } from './failure-rates.handler';
import { ChannelPerformanceController } from './channel-performance.controller';
import { ChannelPerformanceHandler } from './channel-performance.handler';

/**
 * quota_data: hourly usage totals per user × model, from the usage receipts (a projection); the
 * failure rates per channel and per model, from the receipts and the failed calls; the channel
 * performance per channel × model (attempts, errors, latency percentiles).
 */
@Module({
  controllers: [QuotaDataController, ChannelPerformanceController],
  providers: [QuotaDataHandler, FailureRatesHandler, ChannelPerformanceHandler],
})
export class UsageDataModule {}
