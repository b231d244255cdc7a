import { comparePositions, serializePosition, type Position } from '@tollgate/event-store';
import type { ProjectionProgress } from '@tollgate/read-store';
import { Gauge, type Registry } from 'prom-client';
import type { MeteredEventStore } from '../infrastructure/metered-event-store';

const NO_LAGS: ReadonlyMap<string, number> = new Map();

export interface ProgressSource {
  progress(): readonly ProjectionProgress[];
}

/**
 * Each projection's `$all` position and lag, computed when scraped from what the runner holds in
 * memory plus one head query. Lag is the time between the log head's event and the last event
 * the projection processed; 0 once it has reached the head.
 */
export function registerProjectionMetrics(
  registry: Registry,
  runner: ProgressSource,
  store: MeteredEventStore,
): void {
  new Gauge({
    name: 'tollgate_projection_position',
    help: 'Last $all position (commit) the projection processed; 0 before its first event.',
    labelNames: ['projection'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { name, position } of runner.progress())
        this.set({ projection: name }, position ? Number(position.commit) : 0);
    },
  });
  new Gauge({
    name: 'tollgate_projection_lag_seconds',
    help: "Seconds between the log head event's time and the projection's last processed event's time (0: caught up).",
    labelNames: ['projection'],
    registers: [registry],
    async collect() {
      this.reset();
      // A store that does not answer leaves the lag out: no value beats a wrong one.
      const lags = await projectionLags(runner.progress(), store).catch(() => NO_LAGS);
      for (const [projection, seconds] of lags) this.set({ projection }, seconds);
    },
  });
}

async function projectionLags(
  progress: readonly ProjectionProgress[],
  store: MeteredEventStore,
): Promise<Map<string, number>> {
  const lags = new Map<string, number>();
  const head = await store.headPosition();
  const last = store.lastAppend();
  // The head was appended by this process (its time is known) or by another one sharing the log
  // (then it was recorded at the latest now).
  const headAt = head && last && comparePositions(last.position, head) >= 0 ? last.at : Date.now();
  const firstWaiting = new Map<string, Promise<number>>();
  for (const { name, position, appliedAt } of progress) {
    if (head === null || (position && comparePositions(position, head) >= 0)) {
      lags.set(name, 0);
      continue;
    }
    // Nothing processed in this process yet: the event after its checkpoint stands in for it.
    const at = appliedAt
      ? appliedAt.getTime()
      : await memo(firstWaiting, position, () => timeAfter(store, position));
    lags.set(name, Math.max(0, headAt - at) / 1000);
  }
  return lags;
}

async function timeAfter(store: MeteredEventStore, position: Position | null): Promise<number> {
  const [next] = await store.readAll({ fromPosition: position ?? 'start', maxCount: 1 });
  return next ? next.recordedAt.getTime() : Date.now();
}

function memo(
  cache: Map<string, Promise<number>>,
  position: Position | null,
  load: () => Promise<number>,
): Promise<number> {
  const key = position ? serializePosition(position) : 'start';
  let value = cache.get(key);
  if (!value) cache.set(key, (value = load()));
  return value;
}
