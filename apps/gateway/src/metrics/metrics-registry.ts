import { collectDefaultMetrics, Registry } from 'prom-client';
import type { SelfPrinting } from './metric-cells';

/** The app's metric registry (injection token). */
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');

type Printable = Parameters<Registry['registerMetric']>[0];

const printsItself = (metric: Printable): metric is Printable & SelfPrinting =>
  typeof (metric as Partial<SelfPrinting>).exposition === 'function';

/**
 * prom-client's registry, except that the pre-bound cell metrics print their own lines: it would
 * format every sample's labels afresh on each scrape (about 1 µs a line, 15 lines a channel for
 * the upstream histogram), they format them once when a series is bound. Same bytes either way.
 */
export class MetricsRegistry extends Registry {
  // Registry's per-metric step of metrics(); not in its typings, hence no `override`.
  getMetricsAsString(metric: Printable): Promise<string> {
    if (printsItself(metric)) return Promise.resolve(metric.exposition());
    const base = Registry.prototype as unknown as {
      getMetricsAsString(this: Registry, metric: Printable): Promise<string>;
    };
    return base.getMetricsAsString.call(this, metric);
  }
}

/**
 * A registry of the app's own, not prom-client's global one: several apps in one process (the e2e
 * suites) each expose only their metrics. It starts with the process and Node metrics.
 */
export function createMetricsRegistry(): Registry {
  const registry = new MetricsRegistry();
  collectDefaultMetrics({ register: registry });
  return registry;
}
