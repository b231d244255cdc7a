import { Registry } from 'prom-client';
import { EventMetrics } from './event-metrics';

async function appended(registry: Registry): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find(
    (m) => m.name === 'tollgate_events_appended_total',
  )!;
  return Object.fromEntries(metric.values.map((v) => [v.labels.category, v.value]));
}

describe('EventMetrics', () => {
  it('counts events by the stream name before its first "-", and times every append', async () => {
    const registry = new Registry();
    const metrics = new EventMetrics(registry);
    metrics.appended('user-1', 2, 0.001);
    metrics.appended('user-22', 1, 0.002);
    metrics.appended('username-alice-x', 1, 0.001);
    metrics.appended('billing-1', 3, 0.004);
    metrics.appended('settings', 1, 0.001);
    metrics.appended('user-3', 0, 0.5); // a refused append: timed, nothing written
    expect(await appended(registry)).toEqual({ user: 3, username: 1, billing: 3, settings: 1 });
    const text = await registry.metrics();
    expect(text).toContain('tollgate_event_append_duration_seconds_count 6\n');
    expect(text).toContain('tollgate_event_append_duration_seconds_bucket{le="0.25"} 5\n');
  });

  it('folds categories past the bound into "other"', async () => {
    const registry = new Registry();
    const metrics = new EventMetrics(registry);
    for (let i = 0; i < 70; i++) metrics.appended(`c${i}-1`, 1, 0.001);
    const counts = await appended(registry);
    expect(Object.keys(counts)).toHaveLength(65);
    expect(counts.other).toBe(6);
  });
});
