import { Module } from '@nestjs/common';
import { RetentionService } from './retention.service';

/** Retention of usage receipts (docs/retention.md): the hourly compaction pass. */
@Module({ providers: [RetentionService], exports: [RetentionService] })
export class RetentionModule {}
