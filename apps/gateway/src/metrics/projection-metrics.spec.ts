import type { EventStore, Position, RecordedEvent } from '@tollgate/event-store';
import type { ProjectionProgress } from '@tollgate/read-store';
import { Registry } from 'prom-client';
import { MeteredEventStore } from '../infrastructure/metered-event-store';
import { registerProjectionMetrics } from './projection-metrics';

const at = (commit: number): Position => ({ commit: BigInt(commit), prepare: BigInt(commit) });

function fakeStore(head: number, recordedAt: Record<number, number>) {
  const inner = {
    append: async (_stream: string, events: readonly unknown[]) => {
      head += events.length;
      return { nextExpectedRevision: 0, position: at(head) };
    },
    headPosition: async () => (head === 0 ? null : at(head)),
    readAll: async ({ fromPosition }: { fromPosition: Position | 'start' }) => {
      const next = fromPosition === 'start' ? 1 : Number(fromPosition.commit) + 1;
      return [{ position: at(next), recordedAt: new Date(recordedAt[next]!) } as RecordedEvent];
    },
  };
  return new MeteredEventStore(inner as unknown as EventStore);
}

async function gauges(registry: Registry, name: string): Promise<Record<string, number>> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name)!;
  return Object.fromEntries(metric.values.map((v) => [v.labels.projection, v.value]));
}

describe('projection metrics', () => {
  it('reports each position, lag 0 at the head, and head time minus applied time behind it', async () => {
    const store = fakeStore(0, { 1: Date.now() });
    await store.append('user-1', [{ id: 'a', type: 'T', data: {} }], 'any');
    const appendedAt = store.lastAppend()!.at;
    const progress: ProjectionProgress[] = [
      { name: 'users', position: at(1), appliedAt: new Date(appendedAt) },
      { name: 'logs', position: null, appliedAt: null },
    ];
    const registry = new Registry();
    registerProjectionMetrics(registry, { progress: () => progress }, store);
    expect(await gauges(registry, 'tollgate_projection_position')).toEqual({ users: 1, logs: 0 });
    const lags = await gauges(registry, 'tollgate_projection_lag_seconds');
    expect(lags.users).toBe(0);
    expect(lags.logs).toBeGreaterThanOrEqual(0);

    progress[0] = { name: 'users', position: at(1), appliedAt: new Date(appendedAt - 2_500) };
    await store.append('user-1', [{ id: 'b', type: 'T', data: {} }], 'any');
    const headAt = store.lastAppend()!.at;
    expect((await gauges(registry, 'tollgate_projection_lag_seconds')).users).toBeCloseTo(
      (headAt - appendedAt + 2_500) / 1000,
    );
  });

  it('without an applied time, takes the first event after its checkpoint', async () => {
    const store = fakeStore(8, { 6: Date.now() - 60_000 });
    const registry = new Registry();
    registerProjectionMetrics(
      registry,
      { progress: () => [{ name: 'logs', position: at(5), appliedAt: null }] },
      store,
    );
    const lag = (await gauges(registry, 'tollgate_projection_lag_seconds')).logs!;
    // The head (8) came from another process: its time is taken as now.
    expect(lag).toBeGreaterThanOrEqual(60);
    expect(lag).toBeLessThan(61);
  });

  it('leaves the lag out when the store does not answer', async () => {
    const store = fakeStore(3, {});
    jest.spyOn(store, 'headPosition').mockRejectedValue(new Error('closed'));
    const registry = new Registry();
    registerProjectionMetrics(
      registry,
      { progress: () => [{ name: 'logs', position: at(1), appliedAt: null }] },
      store,
    );
    expect(await gauges(registry, 'tollgate_projection_lag_seconds')).toEqual({});
    expect(await gauges(registry, 'tollgate_projection_position')).toEqual({ logs: 1 });
  });
});
