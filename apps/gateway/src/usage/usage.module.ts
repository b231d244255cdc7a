import { Global, Module } from '@nestjs/common';
import { UsageAppender } from './usage-appender';

/** The batching appender of usage receipts (the relay writes one per request through it). */
@Global()
@Module({ providers: [UsageAppender], exports: [UsageAppender] })
export class UsageModule {}
