import type { Registry } from 'prom-client';
import type { AppendObserver } from '../infrastructure/metered-event-store';
import {
  CellCounter,
  unlabeledHistogram,
  type CounterCell,
  type HistogramCell,
} from './metric-cells';

const APPEND_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
/** Stream names are made by the code (`user-1`, `billing-1`, …): a few dozen prefixes at most. */
const MAX_CATEGORIES = 64;
const OTHER_CATEGORY = 'other';

interface Category {
  readonly prefix: string;
  readonly events: CounterCell;
}

/**
 * Events appended by stream category (the stream name before its first `-`) and append time.
 * Categories are matched by scanning the few known prefixes in place, so a warm append slices no
 * string and allocates nothing.
 */
export class EventMetrics implements AppendObserver {
  private readonly appendedEvents: CellCounter<'category'>;
  private readonly duration: HistogramCell;
  private readonly categories: Category[] = [];
  private other: CounterCell | undefined;

  constructor(registry: Registry) {
    this.appendedEvents = new CellCounter(
      'tollgate_events_appended_total',
      'Events appended to the log, by stream category (the stream name before its first "-").',
      ['category'],
      registry,
    );
    this.duration = unlabeledHistogram(
      {
        name: 'tollgate_event_append_duration_seconds',
        help: 'Time one append to the event store took (failed appends included).',
      },
      APPEND_BUCKETS,
      registry,
    );
  }

  appended(streamId: string, events: number, seconds: number): void {
    this.duration.observe(seconds);
    if (events > 0) this.categoryOf(streamId).value += events;
  }

  private categoryOf(streamId: string): CounterCell {
    const dash = streamId.indexOf('-');
    const length = dash === -1 ? streamId.length : dash;
    for (const category of this.categories) {
      if (category.prefix.length === length && streamId.startsWith(category.prefix))
        return category.events;
    }
    if (this.categories.length >= MAX_CATEGORIES)
      return (this.other ??= this.appendedEvents.cell({ category: OTHER_CATEGORY }));
    const prefix = streamId.slice(0, length);
    const events = this.appendedEvents.cell({ category: prefix });
    this.categories.push({ prefix, events });
    return events;
  }
}
