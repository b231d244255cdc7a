/**
 * `node dist/test/bench/metrics-scrape.measure.js [channels]` (after `npm run bench -- --quick` built
 * it): the cost of GET /metrics with 1,000 channels, and of recording a request.
 *
 * 1. The whole gateway in this process (embedded storage in a temp DATA_DIR), `channels` channels
 *    made through the console API, and for every channel the series traffic leaves behind (an
 *    upstream attempt and a relayed call through the request tracker): then GET /metrics over
 *    loopback, timed per scrape (the budget is 20 ms), next to `registry.metrics()` alone.
 * 2. RequestMetrics on its own: a warm record (its label sets already bound) timed per call, and
 *    the garbage collections over one and over ten million calls (the same few: nothing allocated).
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, get, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Registry } from 'prom-client';
import { USER_ID_HEADER } from '@tollgate/contracts';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { loadConfig } from '../../apps/gateway/src/config/app-config';
import { createApp } from '../../apps/gateway/src/create-app';
import { METRICS_REGISTRY } from '../../apps/gateway/src/metrics/metrics-registry';
import { ModelLabels } from '../../apps/gateway/src/metrics/model-label';
import { RequestMetrics } from '../../apps/gateway/src/metrics/request-metrics';
import { REQUEST_TRACKER } from '../../apps/gateway/src/observability/observability.tokens';
import {
  newRelayTrace,
  type RequestRecord,
} from '../../apps/gateway/src/observability/request-record';
import type { RequestTracker } from '../../apps/gateway/src/observability/request-tracker';

const CHANNELS = Number(process.argv[2] ?? 1000);
const SCRAPES = 200;
const BUDGET_MS = 20;
const MODELS = ['gpt-4o-mini', 'gpt-4o', 'o3-mini', 'claude-3-5-sonnet', 'gemini-1.5-pro'];
/** Keys a batch-mode create takes per call (one channel per line). */
const PER_CREATE = 250;

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;
}

function describeTimes(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  return (
    `mean ${mean.toFixed(2)} ms, p50 ${percentile(sorted, 50).toFixed(2)}, ` +
    `p95 ${percentile(sorted, 95).toFixed(2)}, max ${sorted[sorted.length - 1]!.toFixed(2)}`
  );
}

/** One GET /metrics read to its last byte (not decoded: the scraper's parsing is not ours). */
function scrape(url: string, agent: Agent): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    get(`${url}/metrics`, { agent }, (res) => {
      if (res.statusCode !== 200) reject(new Error(`GET /metrics answered ${res.statusCode}`));
      res.on('data', () => undefined);
      res.on('end', () => resolve(performance.now() - started));
    }).on('error', reject);
  });
}

/** What the relay front does for one call, through the tracker's own entry points. */
function relayThroughTracker(tracker: RequestTracker, channelId: number, model: string): void {
  const res = Object.assign(new EventEmitter(), {
    headersSent: true,
    statusCode: 200,
    setHeader: () => undefined,
  }) as unknown as ServerResponse;
  const req = { method: 'POST', headers: {} } as IncomingMessage;
  const record = tracker.begin(req, res, '/v1/chat/completions');
  record.relay = {
    ...newRelayTrace(1),
    model,
    channelId,
    ttftMs: 300,
    promptTokens: 100,
    completionTokens: 20,
    quota: 150,
  };
  tracker.upstreamDone(channelId, 0.4);
  res.emit('close');
}

async function scrapeWithChannels(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'tollgate-metrics-'));
  const app = await createApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      CRITICAL_RATE_LIMIT: '0',
      SESSION_SECRET: 'metrics-measure-secret',
      CONSOLE_DIR: join(dataDir, 'no-console'),
    }),
  );
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.getHttpServer().address();
    if (!address || typeof address === 'string') throw new Error('no address');
    const url = `http://127.0.0.1:${address.port}`;
    const login = await fetch(`${url}/api/user/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'root', password: '123456' }),
    });
    const session = {
      cookie: login.headers
        .getSetCookie()
        .map((c) => c.split(';')[0])
        .join('; '),
      [USER_ID_HEADER]: String(((await login.json()) as { data: { id: number } }).data.id),
      'content-type': 'application/json',
    };
    const routing = app.get(RoutingTable);
    const t0 = performance.now();
    for (let made = 0; made < CHANNELS; made += PER_CREATE) {
      const count = Math.min(PER_CREATE, CHANNELS - made);
      const keys = Array.from({ length: count }, (_, i) => `sk-measure-${made + i}`).join('\n');
      const res = await fetch(`${url}/api/channel/`, {
        method: 'POST',
        headers: session,
        body: JSON.stringify({
          mode: 'batch',
          channel: {
            type: 1,
            name: 'measure',
            key: keys,
            base_url: 'http://127.0.0.1:9',
            models: MODELS.join(','),
            group: 'default',
          },
        }),
      });
      const body = (await res.json()) as { success: boolean; message?: string };
      if (!body.success) throw new Error(`channel create: ${body.message}`);
    }
    while (routing.all().length < CHANNELS) await new Promise((r) => setTimeout(r, 20));
    process.stdout.write(
      `${CHANNELS} channels created in ${(performance.now() - t0).toFixed(0)} ms\n`,
    );

    const tracker = app.get<RequestTracker>(REQUEST_TRACKER);
    for (const [i, channel] of routing.all().entries())
      relayThroughTracker(tracker, channel.id, MODELS[i % MODELS.length]!);

    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    for (let i = 0; i < 20; i++) await scrape(url, agent); // warm: JIT, the kept-alive socket
    const times: number[] = [];
    for (let i = 0; i < SCRAPES; i++) times.push(await scrape(url, agent));
    agent.destroy();
    const text = await (await fetch(`${url}/metrics`)).text();
    const registry = app.get<Registry>(METRICS_REGISTRY);
    const inProcess: number[] = [];
    for (let i = 0; i < SCRAPES; i++) {
      const started = performance.now();
      await registry.metrics();
      inProcess.push(performance.now() - started);
    }
    const lines = text.split('\n').filter((l) => l && !l.startsWith('#')).length;
    // The app's own view of its scrapes (request arrival → response closed), from this exposition.
    const served = (suffix: string) =>
      Number(
        new RegExp(
          `^tollgate_http_request_duration_seconds_${suffix}\\{method="GET",route="/metrics"\\} (\\S+)$`,
          'm',
        ).exec(text)?.[1],
      );
    const serverMs = (served('sum') / served('count')) * 1000;
    const up = text.split('\n').filter((l) => l.startsWith('tollgate_channel_up{')).length;
    const p95 = percentile(
      [...times].sort((a, b) => a - b),
      95,
    );
    process.stdout.write(
      `exposition: ${(text.length / 1024).toFixed(0)} KiB, ${lines} samples, ${up} tollgate_channel_up series\n` +
        `GET /metrics over loopback, to the last byte (${SCRAPES} scrapes): ${describeTimes(times)}\n` +
        `the same scrapes as the app measured them (arrival → response closed): mean ${serverMs.toFixed(2)} ms\n` +
        `registry.metrics() alone: ${describeTimes(inProcess)}\n` +
        `p95 / ${BUDGET_MS} ms budget: ${(p95 / BUDGET_MS).toFixed(2)}\n`,
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function recordingCost(): Promise<void> {
  const served = new Map<string, readonly string[]>();
  const channels = [{ models: MODELS }];
  const metrics = new RequestMetrics(
    new Registry(),
    new ModelLabels({ servedModels: () => served, all: () => channels }),
  );
  const record: RequestRecord = {
    method: 'POST',
    route: '/v1/chat/completions',
    requestId: 'measure',
    ownId: 'measure',
    startedAt: 0,
    status: 200,
    durationMs: 850,
    userId: 1,
    relay: { ...newRelayTrace(1), model: 'gpt-4o', channelId: 7, ttftMs: 300, quota: 150 },
  };
  for (let i = 0; i < 10_000; i++) metrics.requestDone(record); // bound and optimised
  // Allocating even 8 bytes a call would fill the young generation over and over in ten million
  // calls: the collections would grow with the calls. Allocation-free, both runs see the same few.
  const small = await timedRun(metrics, record, 1_000_000);
  const large = await timedRun(metrics, record, 10_000_000);
  process.stdout.write(
    `warm requestDone (relay call): ${large.ns.toFixed(0)} ns a call; garbage collections: ` +
      `${small.collections} over 1,000,000 calls, ${large.collections} over 10,000,000\n`,
  );
}

async function timedRun(
  metrics: RequestMetrics,
  record: RequestRecord,
  calls: number,
): Promise<{ ns: number; collections: number }> {
  let collections = 0;
  const gc = new PerformanceObserver((list) => (collections += list.getEntries().length));
  gc.observe({ entryTypes: ['gc'] });
  const started = performance.now();
  for (let i = 0; i < calls; i++) metrics.requestDone(record);
  const ns = ((performance.now() - started) * 1e6) / calls;
  await new Promise((resolve) => setTimeout(resolve, 50)); // gc entries are delivered later
  gc.disconnect();
  return { ns, collections };
}

async function main(): Promise<void> {
  await recordingCost();
  await scrapeWithChannels();
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
