import { Counter, Histogram, type LabelValues, type Registry } from 'prom-client';

/**
 * Pre-bound series. prom-client's `labels(...)` children hash their label object on every `inc` /
 * `observe` (a new string and objects per call); a cell is a plain mutable record made once per
 * label set and kept by the caller, so recording on the request path is a few additions and
 * allocates nothing. Each series' label text is also formatted once, when bound: a scrape only
 * joins those prefixes with numbers (MetricsRegistry), which keeps 1,000 channels' series cheap.
 * The text is prom-client's own format, byte for byte (metric-cells.spec.ts compares them).
 */

/** A metric that prints its own lines of the text exposition (see MetricsRegistry). */
export interface SelfPrinting {
  exposition(): string;
}

export interface CounterCell {
  readonly labels: LabelValues<string>;
  value: number;
}

export class HistogramCell {
  /** Per bucket (not cumulative); the last slot holds what exceeds every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: LabelValues<string>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > bounds[i]!) i++;
    this.counts[i]! += 1;
    this.sum += value;
    this.count += 1;
  }
}

/** A counter whose series are cells (copied into prom-client's own map for its JSON). */
export class CellCounter<T extends string> extends Counter<T> implements SelfPrinting {
  private readonly cells: CounterCell[] = [];
  /** Per cell: `name{labels} `. */
  private readonly prefixes: string[] = [];
  private readonly header: string;

  constructor(
    private readonly metricName: string,
    help: string,
    labelNames: readonly T[],
    registry: Registry,
  ) {
    super({ name: metricName, help, labelNames, registers: [registry] });
    this.header = header(metricName, help, 'counter');
  }

  cell(labels: LabelValues<T>): CounterCell {
    const cell: CounterCell = { labels, value: 0 };
    this.cells.push(cell);
    this.prefixes.push(`${this.metricName}${braces(labelText(labels))} `);
    return cell;
  }

  exposition(): string {
    let text = this.header;
    for (let i = 0; i < this.cells.length; i++)
      text += `\n${this.prefixes[i]!}${valueText(this.cells[i]!.value)}`;
    return text;
  }

  override async get() {
    this.reset();
    for (const cell of this.cells) this.inc(cell.labels as LabelValues<T>, cell.value);
    return super.get();
  }
}

/** One line of a histogram as prom-client's `get()` hands it out (its JSON). */
interface HistogramLine {
  readonly labels: LabelValues<string>;
  readonly sharedLabels: LabelValues<string>;
  readonly value: number;
  readonly metricName: string;
}

/** A cell's lines: a prefix per bucket (`+Inf` last), then `_sum` and `_count`. */
interface PrintedCell {
  readonly cell: HistogramCell;
  readonly buckets: readonly string[];
  readonly sum: string;
  readonly count: string;
}

/** A histogram without labels: its one series, registered. */
export function unlabeledHistogram(
  metric: { readonly name: string; readonly help: string },
  bounds: readonly number[],
  registry: Registry,
): HistogramCell {
  return new CellHistogram(metric, [], bounds, registry).cell({});
}

/** A histogram whose series are cells. */
export class CellHistogram<T extends string> extends Histogram<T> implements SelfPrinting {
  private readonly printed: PrintedCell[] = [];
  private readonly header: string;

  constructor(
    private readonly metric: { readonly name: string; readonly help: string },
    labelNames: readonly T[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    super({ ...metric, labelNames, buckets: [...bounds], registers: [registry] });
    this.header = header(metric.name, metric.help, 'histogram');
  }

  cell(labels: LabelValues<T>): HistogramCell {
    const cell = new HistogramCell(labels, this.bounds);
    const { name } = this.metric;
    const own = labelText(labels);
    // prom-client puts `le` first, then the series' labels.
    const bucket = (le: string) => `${name}_bucket{le="${le}"${own ? `,${own}` : ''}} `;
    this.printed.push({
      cell,
      buckets: [...this.bounds.map((le) => bucket(String(le))), bucket('+Inf')],
      sum: `${name}_sum${braces(own)} `,
      count: `${name}_count${braces(own)} `,
    });
    return cell;
  }

  exposition(): string {
    // `+=` (a rope, flattened once when sent) measured cheaper than an array of 15,000 lines joined.
    let text = this.header;
    for (const { cell, buckets, sum, count } of this.printed) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += cell.counts[i]!;
        text += `\n${buckets[i]!}${valueText(cumulative)}`;
      }
      text += `\n${buckets[this.bounds.length]!}${valueText(cell.count)}`;
      text += `\n${sum}${valueText(cell.sum)}\n${count}${valueText(cell.count)}`;
    }
    return text;
  }

  /** What prom-client's `get()` (the JSON form) reads instead of its own map. */
  getForPromString() {
    const { name, help } = this.metric;
    const values: HistogramLine[] = [];
    for (const { cell } of this.printed) {
      let cumulative = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        cumulative += cell.counts[i]!;
        values.push(line({ le: this.bounds[i]! }, cell, cumulative, `${name}_bucket`));
      }
      values.push(line({ le: '+Inf' }, cell, cell.count, `${name}_bucket`));
      values.push(line({}, cell, cell.sum, `${name}_sum`));
      values.push(line({}, cell, cell.count, `${name}_count`));
    }
    return Promise.resolve({ name, help, type: 'histogram', values, aggregator: 'sum' });
  }
}

function line(
  labels: LabelValues<string>,
  cell: HistogramCell,
  value: number,
  metricName: string,
): HistogramLine {
  return { labels, sharedLabels: cell.labels, value, metricName };
}

function header(name: string, help: string, type: string): string {
  return `# HELP ${escape(name)} ${escape(help)}\n# TYPE ${escape(name)} ${type}`;
}

function labelText(labels: LabelValues<string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}="${escape(String(value)).replace(/"/g, '\\"')}"`)
    .join(',');
}

function braces(labels: string): string {
  return labels ? `{${labels}}` : '';
}

function escape(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

/** prom-client's spelling of numbers (its `Nan` included: Prometheus reads it). */
function valueText(value: number): string {
  if (Number.isNaN(value)) return 'Nan';
  if (!Number.isFinite(value)) return value < 0 ? '-Inf' : '+Inf';
  return `${value}`;
}
