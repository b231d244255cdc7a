import { Registry } from 'prom-client';
import type { RelayTrace, RequestRecord } from '../observability/request-record';
import { CellCounter, CellHistogram } from './metric-cells';
import { ModelLabels } from './model-label';
import { RequestMetrics } from './request-metrics';

const served = new Map<string, readonly string[]>();
const routing = { servedModels: () => served, all: () => [{ models: ['gpt-4o-mini'] }] };

function record(over: Partial<RequestRecord> = {}, relay?: Partial<RelayTrace>): RequestRecord {
  return {
    method: 'POST',
    route: '/v1/chat/completions',
    requestId: 'r',
    startedAt: 0,
    status: 200,
    durationMs: 120,
    userId: 7,
    relay: relay && {
      tokenId: 3,
      model: 'gpt-4o-mini',
      channelId: 2,
      retries: 0,
      ttftMs: null,
      promptTokens: 0,
      completionTokens: 0,
      quota: 0,
      ...relay,
    },
    ...over,
  } as RequestRecord;
}

function setup() {
  const registry = new Registry();
  const counterCells = jest.spyOn(CellCounter.prototype, 'cell');
  const histogramCells = jest.spyOn(CellHistogram.prototype, 'cell');
  const metrics = new RequestMetrics(registry, new ModelLabels(routing));
  const value = async (name: string, labels: Record<string, string>) => {
    // A histogram's lines are named <name>_bucket, _sum and _count.
    const metric = (await registry.getMetricsAsJSON()).find(
      (m) => name === m.name || name.startsWith(`${m.name}_`),
    )!;
    return metric.values
      .filter((v) => ('metricName' in v ? v.metricName : metric.name) === name)
      .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
      .reduce((sum, v) => sum + v.value, 0);
  };
  return { registry, metrics, value, counterCells, histogramCells };
}

describe('RequestMetrics (pre-bound label cache)', () => {
  afterEach(() => jest.restoreAllMocks());

  it('binds each label set once: a warm request only adds to cells it already has', async () => {
    const { metrics, value, counterCells, histogramCells } = setup();
    const relay = { promptTokens: 10, completionTokens: 4, quota: 30, retries: 1, ttftMs: 250 };
    metrics.requestDone(record({}, relay));
    const counters = counterCells.mock.calls.length;
    const histograms = histogramCells.mock.calls.length;
    // http: 1 status series; relay: 1 request series + retries, 2 token kinds, quota.
    expect(counters).toBe(6);
    expect(histograms).toBe(2); // http duration, ttft
    for (let i = 0; i < 99; i++) metrics.requestDone(record({}, relay));
    expect(counterCells.mock.calls.length).toBe(counters);
    expect(histogramCells.mock.calls.length).toBe(histograms);

    const series = { model: 'gpt-4o-mini', channel_id: '2', status: '200' };
    expect(await value('tollgate_relay_requests_total', series)).toBe(100);
    expect(await value('tollgate_relay_tokens_total', { kind: 'prompt' })).toBe(1000);
    expect(await value('tollgate_relay_tokens_total', { kind: 'completion' })).toBe(400);
    expect(await value('tollgate_relay_quota_total', { model: 'gpt-4o-mini' })).toBe(3000);
    expect(await value('tollgate_relay_retries_total', { model: 'gpt-4o-mini' })).toBe(100);
    expect(await value('tollgate_relay_ttft_seconds_count', {})).toBe(100);
    expect(await value('tollgate_relay_ttft_seconds_sum', {})).toBeCloseTo(25);
    expect(await value('tollgate_http_request_duration_seconds_sum', {})).toBeCloseTo(12);
  });

  it('adds a series per new status, channel and route, each keyed by the template', async () => {
    const { metrics, value } = setup();
    metrics.requestDone(record({ status: 499 }, { channelId: 0 }));
    metrics.requestDone(record({ status: 200 }, { channelId: 5 }));
    metrics.requestDone(record({ method: 'GET', route: '/api/user/:id', status: 404 }));
    expect(await value('tollgate_relay_requests_total', { channel_id: '0', status: '499' })).toBe(
      1,
    );
    expect(await value('tollgate_relay_requests_total', { channel_id: '5', status: '200' })).toBe(
      1,
    );
    expect(await value('tollgate_relay_requests_total', {})).toBe(2);
    expect(
      await value('tollgate_http_requests_total', { route: '/api/user/:id', status: '404' }),
    ).toBe(1);
    expect(await value('tollgate_http_requests_total', {})).toBe(3);
  });

  it('bounds the model label: unknown names share "other", a refused call is "none"', async () => {
    const { registry, metrics, value } = setup();
    metrics.requestDone(record({}, { model: 'free-text-1' }));
    metrics.requestDone(record({}, { model: 'free-text-2' }));
    metrics.requestDone(record({ status: 401 }, { model: '', channelId: 0 }));
    expect(await value('tollgate_relay_requests_total', { model: 'other' })).toBe(2);
    expect(await value('tollgate_relay_requests_total', { model: 'none', channel_id: '0' })).toBe(
      1,
    );
    expect(await registry.metrics()).not.toContain('free-text');
  });

  it('times upstream attempts per channel', async () => {
    const { metrics, value } = setup();
    metrics.upstreamDone(4, 0.2);
    metrics.upstreamDone(4, 0.6);
    metrics.upstreamDone(9, 1);
    const count = 'tollgate_relay_upstream_duration_seconds_count';
    expect(await value(count, { channel_id: '4' })).toBe(2);
    expect(await value(count, { channel_id: '9' })).toBe(1);
  });

  it('counts routing decisions by strategy and outcome; pinned calls are not routed', async () => {
    const { metrics, value } = setup();
    metrics.requestDone(record({}, { routing: 'latency' }));
    metrics.requestDone(record({}, { routing: 'latency' }));
    metrics.requestDone(record({ status: 502 }, { routing: 'latency' }));
    metrics.requestDone(record({}, { routing: 'weighted' }));
    metrics.requestDone(record({}, { routing: undefined }));
    const decisions = 'tollgate_routing_decisions_total';
    expect(await value(decisions, { strategy: 'latency', outcome: 'answered' })).toBe(2);
    expect(await value(decisions, { strategy: 'latency', outcome: 'failed' })).toBe(1);
    expect(await value(decisions, { strategy: 'weighted', outcome: 'answered' })).toBe(1);
  });

  it('counts the calls that moved on to a fallback model by reason', async () => {
    const { metrics, value } = setup();
    metrics.requestDone(record({}, { fallback: 'failed' }));
    metrics.requestDone(record({ status: 500 }, { fallback: 'failed' }));
    metrics.requestDone(record({}, { fallback: 'context_window' }));
    metrics.requestDone(record({}, { fallback: undefined }));
    const fallbacks = 'tollgate_model_fallbacks_total';
    expect(await value(fallbacks, { reason: 'failed' })).toBe(2);
    expect(await value(fallbacks, { reason: 'context_window' })).toBe(1);
    expect(await value(fallbacks, { reason: 'content_filter' })).toBe(0);
  });
});
