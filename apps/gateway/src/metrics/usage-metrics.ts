import type { Registry } from 'prom-client';
import type { ReceiptDurabilityObserver } from '../usage/usage-appender';
import { unlabeledHistogram, type HistogramCell } from './metric-cells';

/**
 * Fine below 50 ms, where a receipt's wait for its commit normally lies (the appender's pacing is
 * a few ms, a commit ~1 ms), so a percentile read from the buckets is close to the real one.
 */
const DURABLE_BUCKETS = [
  0.001, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01, 0.0125, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05,
  0.075, 0.1, 0.25, 0.5, 1, 2.5,
];

/**
 * A usage receipt's time from being queued (its call settled: right after the answer's last bytes
 * under BILLING_DURABILITY=batched, before them under strict) to its commit in the log: how long a
 * billed call exists only in the relay's memory, which a crash would lose under batched.
 */
export class UsageMetrics implements ReceiptDurabilityObserver {
  private readonly durable: HistogramCell;

  constructor(registry: Registry) {
    this.durable = unlabeledHistogram(
      {
        name: 'tollgate_usage_receipt_durable_seconds',
        help: "A usage receipt's time from its call's settlement to its commit in the event log.",
      },
      DURABLE_BUCKETS,
      registry,
    );
  }

  receiptDurable(seconds: number): void {
    this.durable.observe(seconds);
  }
}
