import { Counter, Histogram, Registry } from 'prom-client';
import { CellCounter, CellHistogram } from './metric-cells';
import { MetricsRegistry } from './metrics-registry';

const BOUNDS = [0.1, 0.5, 1];
/** A label value that needs every escape of the text format. */
const ODD = 'a "quoted" \\ back\nslash';

describe('pre-bound metric cells', () => {
  it('print a histogram exactly as prom-client prints the same observations', async () => {
    const ours = new MetricsRegistry();
    const theirs = new Registry();
    const cells = new CellHistogram({ name: 'h', help: 'help\\me' }, ['route'], BOUNDS, ours);
    const reference = new Histogram({
      name: 'h',
      help: 'help\\me',
      labelNames: ['route'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const a = cells.cell({ route: '/a' });
    const b = cells.cell({ route: ODD });
    for (const [cell, route, value] of [
      [a, '/a', 0.05],
      [a, '/a', 0.1],
      [a, '/a', 0.7],
      [a, '/a', 3],
      [b, ODD, 0.3],
    ] as const) {
      cell.observe(value);
      reference.observe({ route }, value);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    // JSON too (prom-client adds an empty exemplar field to each of its lines).
    expect(await theirs.getMetricsAsJSON()).toMatchObject(await ours.getMetricsAsJSON());
  });

  it('print an unlabelled histogram and counters as prom-client does', async () => {
    const ours = new MetricsRegistry();
    const theirs = new Registry();
    const bare = new CellHistogram({ name: 'bare', help: 'h' }, [], BOUNDS, ours).cell({});
    const bareRef = new Histogram({
      name: 'bare',
      help: 'h',
      buckets: BOUNDS,
      registers: [theirs],
    });
    const counter = new CellCounter('c_total', 'help', ['kind', 'model'], ours);
    const counterRef = new Counter({
      name: 'c_total',
      help: 'help',
      labelNames: ['kind', 'model'],
      registers: [theirs],
    });
    bare.observe(0.2);
    bareRef.observe(0.2);
    counter.cell({ kind: 'prompt', model: ODD }).value += 3.5;
    counterRef.inc({ kind: 'prompt', model: ODD }, 3.5);
    counter.cell({ kind: 'completion', model: 'm' });
    counterRef.inc({ kind: 'completion', model: 'm' }, 0);
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await theirs.getMetricsAsJSON()).toMatchObject(await ours.getMetricsAsJSON());
  });

  it('count a counter cell by plain additions, read when scraped', async () => {
    const registry = new MetricsRegistry();
    const counter = new CellCounter('c_total', 'help', ['kind'], registry);
    const prompt = counter.cell({ kind: 'prompt' });
    prompt.value += 3;
    expect(await registry.metrics()).toContain('\nc_total{kind="prompt"} 3\n');
    prompt.value += 2;
    expect(await registry.metrics()).toContain('\nc_total{kind="prompt"} 5\n');
  });
});
