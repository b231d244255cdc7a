/**
 * GET /metrics through the whole app: the exposition parses and names every documented metric,
 * relay counts agree with the consumption log, labels stay bounded (route templates, `other` for
 * an unknown model, no key or user anywhere), channels and appends show, METRICS_TOKEN guards it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import type { LogDto, PageOf } from '@tollgate/contracts';
import { MockUpstream } from '@tollgate/testing/mock-upstream';
import { RoutingTable } from '../../apps/gateway/src/channels/routing-table';
import { waitUntil } from '../support/e2e-helpers';
import { addRelayChannel, createRelayToken, relaySdk } from '../support/relay-helpers';
import {
  type ConsoleClient,
  loginRoot,
  registerAndLogin,
  startTestApp,
  type TestApp,
} from '../support/test-app';

jest.setTimeout(120_000);

const METRIC_NAMES = [
  'tollgate_http_requests_total',
  'tollgate_http_request_duration_seconds',
  'tollgate_relay_requests_total',
  'tollgate_relay_upstream_duration_seconds',
  'tollgate_relay_ttft_seconds',
  'tollgate_relay_retries_total',
  'tollgate_relay_tokens_total',
  'tollgate_relay_quota_total',
  'tollgate_channel_up',
  'tollgate_events_appended_total',
  'tollgate_event_append_duration_seconds',
  'tollgate_usage_receipt_durable_seconds',
  'tollgate_projection_lag_seconds',
  'tollgate_projection_position',
  'process_resident_memory_bytes',
  'nodejs_eventloop_lag_seconds',
];

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

interface Exposition {
  readonly types: ReadonlyMap<string, string>;
  readonly samples: readonly Sample[];
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** The Prometheus text format, strictly: a line that is neither a comment nor a sample fails. */
function parseExposition(text: string): Exposition {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ')) continue;
    const type = /^# TYPE (\S+) (counter|gauge|histogram|summary|untyped)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not an exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name!] = value!;
    // Prometheus reads floats as Go's ParseFloat: NaN and ±Inf in any case (prom-client prints "Nan").
    const value = /^nan$/i.test(match[3]!) ? NaN : Number(match[3]);
    if (Number.isNaN(value) && !/^nan$/i.test(match[3]!)) throw new Error(`not a value: ${line}`);
    samples.push({ name: match[1]!, labels, value });
  }
  return { types, samples };
}

/** Sum of the samples named `name` whose labels include `where`. */
function sum(e: Exposition, name: string, where: Record<string, string> = {}): number {
  return e.samples
    .filter((s) => s.name === name && Object.entries(where).every(([k, v]) => s.labels[k] === v))
    .reduce((total, s) => total + s.value, 0);
}

function labelValues(e: Exposition, name: string, label: string): string[] {
  return e.samples.filter((s) => s.name === name).map((s) => s.labels[label]!);
}

describe('GET /metrics', () => {
  let t: TestApp;
  let upstream: MockUpstream;
  let root: ConsoleClient;
  let routing: RoutingTable;
  let mainChannel: number;

  const scrape = async (): Promise<{ text: string; metrics: Exposition }> => {
    const res = await request(t.url).get('/metrics');
    expect(res.status).toBe(200);
    return { text: res.text, metrics: parseExposition(res.text) };
  };

  beforeAll(async () => {
    upstream = await MockUpstream.start();
    t = await startTestApp();
    routing = t.app.get(RoutingTable);
    root = await loginRoot(t.url);
    for (const [key, value] of [
      ['ModelRatio', JSON.stringify({ 'gpt-4o-mini': 0.075 })],
      ['QuotaForNewUser', '1000000'],
    ])
      expect((await root.put('/api/option/', { key, value })).body).toMatchObject({
        success: true,
      });
    mainChannel = await addRelayChannel(root, routing, {
      type: 1,
      name: 'main',
      key: 'sk-upstream-main',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
  });

  afterAll(async () => {
    await t?.close();
    await upstream?.close();
  });

  it('answers the text exposition with every documented metric, outside /api', async () => {
    const res = await request(t.url).get('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const { types } = parseExposition(res.text);
    for (const name of METRIC_NAMES) expect(types.has(name)).toBe(true);
    expect(types.get('tollgate_relay_requests_total')).toBe('counter');
    expect(types.get('tollgate_relay_ttft_seconds')).toBe('histogram');
    expect(types.get('tollgate_channel_up')).toBe('gauge');
    // The example Grafana dashboard only names metrics the app exposes.
    const dashboard = readFileSync(
      join(__dirname, '../../eventstore/grafana-dashboard.json'),
      'utf8',
    );
    const charted = new Set(
      [...dashboard.matchAll(/\b(?:tollgate|process|nodejs)_[a-z0-9_]+/g)].map(([name]) =>
        name.replace(/_(bucket|sum|count)$/, ''),
      ),
    );
    expect(charted.size).toBeGreaterThan(10);
    for (const name of charted) expect([name, types.has(name)]).toEqual([name, true]);
  });

  it('counts N relayed calls exactly, and tokens and quota as the consumption log sums them', async () => {
    const web = await registerAndLogin(t.url, 'metricsuser');
    const { key } = await createRelayToken(web, { name: 'metrics', remain_quota: 500_000 });
    const sdk = relaySdk(t.url, key);
    upstream.setDefaults({ usage: { prompt_tokens: 40, completion_tokens: 12 }, chunks: 3 });
    const before = (await scrape()).metrics;
    const model = { model: 'gpt-4o-mini' };
    const plain = 3;
    const streamed = 2;
    for (let i = 0; i < plain; i++)
      await sdk.chat.completions.create({ ...model, messages: [{ role: 'user', content: 'hi' }] });
    for (let i = 0; i < streamed; i++) {
      const stream = await sdk.chat.completions.create({
        ...model,
        messages: [{ role: 'user', content: 'hi' }],
        stream: true,
      });
      for await (const chunk of stream) void chunk;
    }
    const calls = plain + streamed;
    const relayed = (e: Exposition) => sum(e, 'tollgate_relay_requests_total');
    // A record is handed over when its response closed, just after the client read the end.
    let after = (await scrape()).metrics;
    await waitUntil(
      async () => relayed((after = (await scrape()).metrics)) - relayed(before) >= calls,
      'the relay counter counted every call',
    );
    const logPage = async () =>
      (await root.get('/api/log/?type=2&username=metricsuser&page_size=100')).body
        .data as PageOf<LogDto>;
    await waitUntil(async () => (await logPage()).total >= calls, 'the log has every call');
    const rows = (await logPage()).items;
    const durable = (e: Exposition) => sum(e, 'tollgate_usage_receipt_durable_seconds_count');
    await waitUntil(
      async () => durable((after = (await scrape()).metrics)) - durable(before) >= calls,
      "every call's receipt was timed to its commit",
    );

    expect(relayed(after) - relayed(before)).toBe(calls);
    expect(durable(after) - durable(before)).toBe(calls);
    expect(rows).toHaveLength(calls);
    const grew = (name: string, where: Record<string, string>) =>
      sum(after, name, where) - sum(before, name, where);
    const series = { ...model, channel_id: String(mainChannel), status: '200' };
    expect(grew('tollgate_relay_requests_total', series)).toBe(calls);
    const logged = (field: 'prompt_tokens' | 'completion_tokens' | 'quota') =>
      rows.reduce((total, row) => total + row[field], 0);
    expect(logged('prompt_tokens')).toBe(calls * 40);
    expect(grew('tollgate_relay_tokens_total', { ...model, kind: 'prompt' })).toBe(
      logged('prompt_tokens'),
    );
    expect(grew('tollgate_relay_tokens_total', { ...model, kind: 'completion' })).toBe(
      logged('completion_tokens'),
    );
    expect(logged('quota')).toBeGreaterThan(0);
    expect(grew('tollgate_relay_quota_total', model)).toBe(logged('quota'));
    expect(grew('tollgate_relay_ttft_seconds_count', model)).toBe(streamed);
    expect(grew('tollgate_relay_retries_total', model)).toBe(0);
    expect(
      grew('tollgate_relay_upstream_duration_seconds_count', { channel_id: String(mainChannel) }),
    ).toBe(calls);
    expect(
      grew('tollgate_http_requests_total', {
        method: 'POST',
        route: '/v1/chat/completions',
        status: '200',
      }),
    ).toBe(calls);

    // Nothing identifying the caller reaches a label.
    const { text, metrics } = await scrape();
    expect(text).not.toContain(key);
    expect(text).not.toMatch(/"sk-/); // no label value is a key (`task-log` is a projection)
    expect(text).not.toContain('metricsuser');
    const labelNames = new Set(metrics.samples.flatMap((s) => Object.keys(s.labels)));
    for (const name of labelNames) expect(name).not.toMatch(/user|token|ip|key|path|url/i);
  });

  it('labels console requests with the route template, never the raw path', async () => {
    const web = await registerAndLogin(t.url, 'routeuser');
    const res = await root.get(`/api/user/${web.userId}`);
    expect(res.body).toMatchObject({ success: true });
    const { text, metrics } = await scrape();
    expect(
      sum(metrics, 'tollgate_http_requests_total', {
        method: 'GET',
        route: '/api/user/:id',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(text).not.toContain(`/api/user/${web.userId}"`);
    const routes = new Set(labelValues(metrics, 'tollgate_http_requests_total', 'route'));
    for (const route of routes) expect(route).not.toMatch(/\/\d+(\/|$)/);
  });

  it('puts an unknown model under "other" and a call refused before its model under "none"', async () => {
    const web = await registerAndLogin(t.url, 'othermodel');
    const { key } = await createRelayToken(web, { name: 'other', remain_quota: 500_000 });
    const before = (await scrape()).metrics;
    const unknown = 'made-up-model-7f3a';
    await expect(
      relaySdk(t.url, key).chat.completions.create({
        model: unknown,
        messages: [{ role: 'user', content: 'hi' }],
      }),
    ).rejects.toThrow();
    const refused = await request(t.url)
      .post('/v1/chat/completions')
      .set('Authorization', 'Bearer sk-not-a-token')
      .send({ model: 'gpt-4o-mini', messages: [] });
    expect(refused.status).toBe(401);
    let after = before;
    const grew = (model: string) =>
      sum(after, 'tollgate_relay_requests_total', { model }) -
      sum(before, 'tollgate_relay_requests_total', { model });
    await waitUntil(async () => {
      after = (await scrape()).metrics;
      return grew('other') >= 1 && grew('none') >= 1;
    }, 'both calls counted');
    expect(grew('other')).toBe(1);
    expect(grew('none')).toBe(1);
    expect(sum(after, 'tollgate_relay_requests_total', { model: 'none', channel_id: '0' })).toBe(
      sum(after, 'tollgate_relay_requests_total', { model: 'none' }),
    );
    expect(labelValues(after, 'tollgate_relay_requests_total', 'model')).not.toContain(unknown);
  });

  it('shows a disabled channel as down', async () => {
    const spare = await addRelayChannel(root, routing, {
      type: 1,
      name: 'spare',
      key: 'sk-upstream-spare',
      base_url: upstream.url,
      models: 'gpt-4o-mini',
      group: 'default',
    });
    const up = async (id: number) =>
      sum((await scrape()).metrics, 'tollgate_channel_up', { channel_id: String(id) });
    expect(await up(spare)).toBe(1);
    expect((await root.put('/api/channel/', { id: spare, status: 2 })).body).toMatchObject({
      success: true,
    });
    await waitUntil(() => routing.channel(spare)?.status === 2, 'the routing table has it off');
    expect(await up(spare)).toBe(0);
    expect(await up(mainChannel)).toBe(1);
  });

  it('counts appended events by stream category, and shows each projection caught up', async () => {
    const before = (await scrape()).metrics;
    await registerAndLogin(t.url, 'eventsuser');
    const { metrics: after } = await scrape();
    const categories = labelValues(after, 'tollgate_events_appended_total', 'category');
    expect(categories).toContain('user');
    for (const category of categories) expect(category).not.toContain('-');
    const appended = (e: Exposition, where: Record<string, string> = {}) =>
      sum(e, 'tollgate_events_appended_total', where);
    expect(appended(after, { category: 'user' })).toBeGreaterThan(
      appended(before, { category: 'user' }),
    );
    expect(sum(after, 'tollgate_event_append_duration_seconds_count')).toBeGreaterThan(
      sum(before, 'tollgate_event_append_duration_seconds_count'),
    );

    const projections = labelValues(after, 'tollgate_projection_position', 'projection');
    expect(projections).toContain('users');
    for (const name of projections)
      expect(sum(after, 'tollgate_projection_position', { projection: name })).toBeGreaterThan(0);
    // Caught up once the reads see the new user: every lag is 0 then.
    await waitUntil(async () => {
      const lags = (await scrape()).metrics.samples.filter(
        (s) => s.name === 'tollgate_projection_lag_seconds',
      );
      return lags.length === projections.length && lags.every((s) => s.value === 0);
    }, 'every projection caught up');
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;

  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 without the bearer token or with another, 200 with it', async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: 'scrape-secret-1' } });
    const none = await request(t.url).get('/metrics');
    expect(none.status).toBe(401);
    expect(none.text).not.toContain('tollgate_');
    const wrong = await request(t.url).get('/metrics').set('Authorization', 'Bearer scrape-secret');
    expect(wrong.status).toBe(401);
    const right = await request(t.url)
      .get('/metrics')
      .set('Authorization', 'Bearer scrape-secret-1');
    expect(right.status).toBe(200);
    expect(right.text).toContain('# TYPE tollgate_relay_requests_total counter');
  });
});
