import { Module } from '@nestjs/common';
import { ConcurrencySlots } from './concurrency-slots';
import { RateAllowances } from './rate-allowances';
import { ScaleOutLimits } from './scale-out-limits';

/**
 * Request rate limits across scale-out processes (docs/scale-out.md, "Rate limits across
 * processes"); inactive in single-process mode, where the relay's in-memory limiters alone count.
 */
@Module({
  providers: [RateAllowances, ConcurrencySlots, ScaleOutLimits],
  exports: [ScaleOutLimits],
})
export class RateLimitsModule {}
