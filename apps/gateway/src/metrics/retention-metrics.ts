import { Counter, type Registry } from 'prom-client';
import type { RetentionStats } from '../retention/retention.service';

export interface RetentionSource {
  readonly stats: RetentionStats;
}

/** What this process's compaction passes removed from the live store (read when scraped). */
export function registerRetentionMetrics(registry: Registry, retention: RetentionSource): void {
  new Counter({
    name: 'tollgate_receipts_compacted_total',
    help: 'Usage receipts folded into hourly sums, archived and removed from the live event store by this process.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(retention.stats.receipts);
    },
  });
  new Counter({
    name: 'tollgate_usage_streams_compacted_total',
    help: 'Usage streams (one process-hour each) compacted by this process.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(retention.stats.streams);
    },
  });
}
