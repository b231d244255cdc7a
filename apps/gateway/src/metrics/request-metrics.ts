import type { Registry } from 'prom-client';
import type {
  RelayTrace,
  RequestObserver,
  RequestRecord,
  UpstreamObserver,
} from '../observability/request-record';
import { CellCounter, CellHistogram, type CounterCell, type HistogramCell } from './metric-cells';
import type { ModelLabels } from './model-label';

/** Seconds; from a cached console read to a long completion. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const UPSTREAM_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const TTFT_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30];

interface RouteSeries {
  readonly duration: HistogramCell;
  readonly byStatus: Map<number, CounterCell>;
}

interface ModelSeries {
  readonly retries: CounterCell;
  readonly promptTokens: CounterCell;
  readonly completionTokens: CounterCell;
  readonly quota: CounterCell;
  readonly ttft: HistogramCell;
  /** channel id → status → requests. */
  readonly byChannel: Map<number, Map<number, CounterCell>>;
}

/**
 * The HTTP and relay request metrics, from the request tracker's records. Every label set is bound
 * once, in nested Maps keyed by what the record already holds (method → route template → status,
 * model label → channel id → status): a warm request is Map lookups and additions, no allocation.
 * No label carries a user, token, key, address or raw path.
 */
export class RequestMetrics implements RequestObserver, UpstreamObserver {
  private readonly httpRequests: CellCounter<'method' | 'route' | 'status'>;
  private readonly httpDuration: CellHistogram<'method' | 'route'>;
  private readonly relayRequests: CellCounter<'model' | 'channel_id' | 'status'>;
  private readonly upstreamDuration: CellHistogram<'channel_id'>;
  private readonly ttft: CellHistogram<'model'>;
  private readonly retries: CellCounter<'model'>;
  private readonly tokens: CellCounter<'model' | 'kind'>;
  private readonly quota: CellCounter<'model'>;
  private readonly ceilingIgnored: CellCounter<'channel_id'>;
  private readonly routing: CellCounter<'strategy' | 'outcome'>;
  private readonly fallbacks: CellCounter<'reason'>;
  /** reason → calls that moved on to a fallback model. */
  private readonly fallbackCells = new Map<string, CounterCell>();

  private readonly routes = new Map<string, Map<string, RouteSeries>>();
  private readonly models = new Map<string, ModelSeries>();
  private readonly upstreams = new Map<number, HistogramCell>();
  private readonly ignoring = new Map<number, CounterCell>();
  /** strategy → [answered, failed]. */
  private readonly decisions = new Map<string, readonly [CounterCell, CounterCell]>();

  constructor(
    registry: Registry,
    private readonly modelLabels: ModelLabels,
  ) {
    this.httpRequests = new CellCounter(
      'tollgate_http_requests_total',
      'HTTP requests answered (or left by the client: 499), by route template.',
      ['method', 'route', 'status'],
      registry,
    );
    this.httpDuration = new CellHistogram(
      {
        name: 'tollgate_http_request_duration_seconds',
        help: 'Time from the request to its response closing.',
      },
      ['method', 'route'],
      HTTP_BUCKETS,
      registry,
    );
    this.relayRequests = new CellCounter(
      'tollgate_relay_requests_total',
      'Relay calls by model asked for, channel that answered or failed last (0: none), status.',
      ['model', 'channel_id', 'status'],
      registry,
    );
    this.upstreamDuration = new CellHistogram(
      {
        name: 'tollgate_relay_upstream_duration_seconds',
        help: 'Per upstream attempt: time until its answer ended (a stream: its last byte) or failed.',
      },
      ['channel_id'],
      UPSTREAM_BUCKETS,
      registry,
    );
    this.ttft = new CellHistogram(
      {
        name: 'tollgate_relay_ttft_seconds',
        help: 'Streamed relay calls: time to the first byte sent to the client.',
      },
      ['model'],
      TTFT_BUCKETS,
      registry,
    );
    this.retries = new CellCounter(
      'tollgate_relay_retries_total',
      'Upstream attempts beyond the first.',
      ['model'],
      registry,
    );
    this.tokens = new CellCounter(
      'tollgate_relay_tokens_total',
      'Tokens counted for billing (kind: prompt or completion).',
      ['model', 'kind'],
      registry,
    );
    this.quota = new CellCounter(
      'tollgate_relay_quota_total',
      'Quota units charged.',
      ['model'],
      registry,
    );
    this.ceilingIgnored = new CellCounter(
      'tollgate_relay_ceiling_ignored_total',
      'Answers whose upstream wrote more output than the ceiling it was sent, by channel.',
      ['channel_id'],
      registry,
    );
    this.routing = new CellCounter(
      'tollgate_routing_decisions_total',
      'Relay calls routed, by RoutingStrategy and outcome (answered, or failed on every channel tried).',
      ['strategy', 'outcome'],
      registry,
    );
    this.fallbacks = new CellCounter(
      'tollgate_model_fallbacks_total',
      'Relay calls that moved on to a fallback model (ModelFallbacks), by the reason of the last move.',
      ['reason'],
      registry,
    );
  }

  requestDone(record: RequestRecord): void {
    const series = this.routeSeries(record.method, record.route);
    series.duration.observe(record.durationMs / 1000);
    let requests = series.byStatus.get(record.status);
    if (requests === undefined) {
      requests = this.httpRequests.cell({
        method: record.method,
        route: record.route,
        status: String(record.status),
      });
      series.byStatus.set(record.status, requests);
    }
    requests.value += 1;
    if (record.relay) this.relayDone(record.relay, record.status);
  }

  upstreamDone(channelId: number, seconds: number): void {
    let cell = this.upstreams.get(channelId);
    if (cell === undefined) {
      cell = this.upstreamDuration.cell({ channel_id: String(channelId) });
      this.upstreams.set(channelId, cell);
    }
    cell.observe(seconds);
  }

  private relayDone(relay: RelayTrace, status: number): void {
    const model = this.modelLabels.label(relay.model);
    const series = this.modelSeries(model);
    let byStatus = series.byChannel.get(relay.channelId);
    if (byStatus === undefined) {
      byStatus = new Map();
      series.byChannel.set(relay.channelId, byStatus);
    }
    let requests = byStatus.get(status);
    if (requests === undefined) {
      requests = this.relayRequests.cell({
        model,
        channel_id: String(relay.channelId),
        status: String(status),
      });
      byStatus.set(status, requests);
    }
    requests.value += 1;
    series.retries.value += relay.retries;
    series.promptTokens.value += relay.promptTokens;
    series.completionTokens.value += relay.completionTokens;
    series.quota.value += relay.quota;
    if (relay.ttftMs !== null) series.ttft.observe(relay.ttftMs / 1000);
    if (relay.ceilingIgnored) this.ignoredBy(relay.channelId).value += 1;
    if (relay.routing) this.decided(relay.routing, status < 400);
    if (relay.fallback) this.fellBack(relay.fallback);
  }

  private fellBack(reason: string): void {
    let cell = this.fallbackCells.get(reason);
    if (cell === undefined) {
      cell = this.fallbacks.cell({ reason });
      this.fallbackCells.set(reason, cell);
    }
    cell.value += 1;
  }

  private decided(strategy: string, answered: boolean): void {
    let cells = this.decisions.get(strategy);
    if (cells === undefined) {
      cells = [
        this.routing.cell({ strategy, outcome: 'answered' }),
        this.routing.cell({ strategy, outcome: 'failed' }),
      ];
      this.decisions.set(strategy, cells);
    }
    cells[answered ? 0 : 1].value += 1;
  }

  private ignoredBy(channelId: number): CounterCell {
    let cell = this.ignoring.get(channelId);
    if (cell === undefined) {
      cell = this.ceilingIgnored.cell({ channel_id: String(channelId) });
      this.ignoring.set(channelId, cell);
    }
    return cell;
  }

  private routeSeries(method: string, route: string): RouteSeries {
    let byRoute = this.routes.get(method);
    if (byRoute === undefined) {
      byRoute = new Map();
      this.routes.set(method, byRoute);
    }
    let series = byRoute.get(route);
    if (series === undefined) {
      series = { duration: this.httpDuration.cell({ method, route }), byStatus: new Map() };
      byRoute.set(route, series);
    }
    return series;
  }

  private modelSeries(model: string): ModelSeries {
    let series = this.models.get(model);
    if (series === undefined) {
      series = {
        retries: this.retries.cell({ model }),
        promptTokens: this.tokens.cell({ model, kind: 'prompt' }),
        completionTokens: this.tokens.cell({ model, kind: 'completion' }),
        quota: this.quota.cell({ model }),
        ttft: this.ttft.cell({ model }),
        byChannel: new Map(),
      };
      this.models.set(model, series);
    }
    return series;
  }
}
