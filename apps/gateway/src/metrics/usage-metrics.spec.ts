import { Registry } from 'prom-client';
import { UsageMetrics } from './usage-metrics';

describe('UsageMetrics', () => {
  it("puts each receipt's time to its commit in the durability histogram", async () => {
    const registry = new Registry();
    const metrics = new UsageMetrics(registry);
    metrics.receiptDurable(0.004);
    metrics.receiptDurable(0.009);
    metrics.receiptDurable(0.03);
    const text = await registry.metrics();
    expect(text).toContain('# TYPE tollgate_usage_receipt_durable_seconds histogram');
    expect(text).toContain('tollgate_usage_receipt_durable_seconds_bucket{le="0.005"} 1\n');
    expect(text).toContain('tollgate_usage_receipt_durable_seconds_bucket{le="0.01"} 2\n');
    expect(text).toContain('tollgate_usage_receipt_durable_seconds_bucket{le="0.025"} 2\n');
    expect(text).toContain('tollgate_usage_receipt_durable_seconds_bucket{le="+Inf"} 3\n');
    expect(text).toContain('tollgate_usage_receipt_durable_seconds_count 3\n');
  });
});
