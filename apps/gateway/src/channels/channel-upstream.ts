import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { channelTypeInfo } from '@tollgate/contracts';
import {
  type ChatAdaptor,
  channelProtocol,
  channelScrubber,
  type JsonObject,
  upstreamModelName,
  upstreamTarget,
  type AttemptFailure,
  scrubFailure,
  type WireChannel,
} from '@tollgate/relay';
import { Agent, request } from 'undici';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';

const MAX_BODY_BYTES = 1024 * 1024;

export type TestOutcome =
  | { readonly ok: true; readonly elapsedMs: number }
  | { readonly ok: false; readonly elapsedMs: number; readonly failure: AttemptFailure };

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly text: string;
}

/** A call that could not produce a usable answer (network, timeout, unexpected body). */
export class UpstreamError extends Error {
  constructor(readonly failure: AttemptFailure) {
    super(failure.message);
  }
}

export const baseUrlOf = (type: number, baseUrl: string) =>
  (baseUrl.trim() || channelTypeInfo(type)?.defaultBaseUrl || '').replace(/\/+$/, '');

/** An answer the provider gave that is not what was asked for (the relay's failure shape). */
const httpFailure = (status: number, message: string, type = '', code = ''): AttemptFailure => ({
  kind: 'http',
  status,
  message,
  type,
  code,
});

/** Provider error text in one-api's and new-api's order: error.message, message, the raw text. */
function failureOf(answer: Answer): AttemptFailure {
  const http = (message: string, type = '', code = '') =>
    httpFailure(answer.status, message, type, code);
  const body = answer.body as { error?: unknown; message?: unknown } | undefined;
  const error = body && typeof body === 'object' ? body.error : undefined;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; type?: unknown; code?: unknown };
    return http(
      typeof e.message === 'string' ? e.message : `status ${answer.status}`,
      typeof e.type === 'string' ? e.type : '',
      typeof e.code === 'string' ? e.code : '',
    );
  }
  if (typeof error === 'string') return http(error);
  if (body && typeof body === 'object' && typeof body.message === 'string')
    return http(body.message);
  const text = answer.text.trim().slice(0, 300);
  return http(text ? `status ${answer.status}: ${text}` : `status ${answer.status}`);
}

/**
 * Calls to providers made by channel management (tests, balances, model lists): undici with
 * bounded time and body size. The relay has its own pools.
 */
@Injectable()
export class ChannelUpstream implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly aborts = new AbortController();
  /** CHANNEL_TEST_TIMEOUT_MS: the whole call, connect included (default 30 s). */
  private readonly timeoutMs: number;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.timeoutMs = Math.max(1, config.channelTestTimeoutMs);
    this.agent = new Agent({
      connections: 32,
      connect: { timeout: Math.min(5_000, this.timeoutMs) },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
  }

  /** The types the relay can call (OpenAI wire or an adaptor): a test calls them its way. */
  static supportsTest(type: number): boolean {
    return channelProtocol(type).kind !== 'unsupported';
  }

  private async call(
    url: string,
    init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string | Buffer },
    timeoutMs: number,
  ): Promise<Answer> {
    let res;
    try {
      res = await request(url, {
        method: init.method ?? 'GET',
        headers: init.headers,
        body: init.body,
        dispatcher: this.agent,
        signal: AbortSignal.any([this.aborts.signal, AbortSignal.timeout(timeoutMs)]),
      });
    } catch (error) {
      throw this.stoppedOr(error, timeoutMs);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          res.body.destroy();
          break;
        }
        chunks.push(chunk);
      }
    } catch (error) {
      throw this.stoppedOr(error, timeoutMs);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.statusCode, body, text };
  }

  /**
   * A call cut short by the shutdown is no answer from the provider: it stays a plain error, so no
   * failed test or balance is recorded for it. Anything else is the provider's failure.
   */
  private stoppedOr(error: unknown, timeoutMs: number): Error {
    if (this.aborts.signal.aborted) return new Error('stopped: the server is shutting down');
    return new UpstreamError(networkFailure(error, timeoutMs));
  }

  /**
   * One tiny chat completion with the channel's key, sent where and how the relay sends it (URL,
   * headers, model mapping); the time is the whole round trip. A provider may echo the key in its
   * error: the failure is scrubbed.
   */
  async test(channel: WireChannel, model: string): Promise<TestOutcome> {
    const outcome = await this.testCall(channel, model);
    if (outcome.ok) return outcome;
    return { ...outcome, failure: scrubFailure(outcome.failure, channelScrubber(channel)) };
  }

  private async testCall(channel: WireChannel, model: string): Promise<TestOutcome> {
    const upstreamModel = upstreamModelName(channel, model);
    const baseUrl = baseUrlOf(channel.type, channel.baseUrl);
    const protocol = channelProtocol(channel.type);
    if (protocol.kind === 'adaptor') {
      return this.testAdaptor(protocol.adaptor, { ...channel, baseUrl }, model, upstreamModel);
    }
    let target;
    try {
      target = upstreamTarget(
        { ...channel, baseUrl },
        'chat',
        upstreamModel,
        'application/json',
        false,
      );
    } catch {
      // Custom and Azure have no default base URL: a channel saved without one has nowhere to go.
      const failure = { kind: 'network', message: `invalid base URL "${baseUrl}"` } as const;
      return { ok: false, elapsedMs: 0, failure };
    }
    const body = JSON.stringify({
      model: upstreamModel,
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 5,
    });
    const started = performance.now();
    try {
      const answer = await this.call(
        `${target.origin}${target.path}`,
        { method: 'POST', headers: target.headers, body },
        this.timeoutMs,
      );
      const elapsedMs = performance.now() - started;
      const choices = (answer.body as { choices?: unknown } | undefined)?.choices;
      if (answer.status === 200 && Array.isArray(choices)) return { ok: true, elapsedMs };
      const failure =
        answer.status === 200
          ? httpFailure(200, `unexpected answer: ${answer.text.slice(0, 200)}`)
          : failureOf(answer);
      return { ok: false, elapsedMs, failure };
    } catch (error) {
      const elapsedMs = performance.now() - started;
      if (error instanceof UpstreamError) return { ok: false, elapsedMs, failure: error.failure };
      throw error;
    }
  }

  /** A converting provider tested as the relay calls it: the adaptor's request, its answer check. */
  private async testAdaptor(
    adaptor: ChatAdaptor,
    channel: WireChannel,
    model: string,
    upstreamModel: string,
  ): Promise<TestOutcome> {
    const hub = { model, messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 };
    let req;
    try {
      req = adaptor.request('chat', hub, channel, upstreamModel, false, new Date());
      if (adaptor.authorize) req = await adaptor.authorize(req, channel, new Date());
    } catch (error) {
      // A key in the wrong format (Bedrock's Ak|Sk|Region), a base URL that cannot be parsed.
      const failure = { kind: 'network', message: (error as Error).message } as const;
      return { ok: false, elapsedMs: 0, failure };
    }
    const started = performance.now();
    try {
      const answer = await this.call(
        `${req.origin}${req.path}`,
        { method: 'POST', headers: req.headers, body: req.body },
        this.timeoutMs,
      );
      const elapsedMs = performance.now() - started;
      if (answer.status !== 200) {
        const info = adaptor.error(answer.status, answer.text);
        const failure = httpFailure(answer.status, info.message, info.type, info.code);
        return { ok: false, elapsedMs, failure };
      }
      const body = answer.body as JsonObject | undefined;
      const converted =
        body && typeof body === 'object'
          ? adaptor.response('chat', body, { id: 'test', model, created: 0 })
          : undefined;
      if (converted?.ok) return { ok: true, elapsedMs };
      const failure = converted
        ? httpFailure(converted.failure.status, converted.failure.info.message)
        : httpFailure(200, `unexpected answer: ${answer.text.slice(0, 200)}`);
      return { ok: false, elapsedMs, failure };
    } catch (error) {
      const elapsedMs = performance.now() - started;
      if (error instanceof UpstreamError) return { ok: false, elapsedMs, failure: error.failure };
      throw error;
    }
  }

  /** The provider's model ids (OpenAI-style GET /v1/models). */
  listModels(target: Pick<WireChannel, 'type' | 'baseUrl' | 'key'>): Promise<string[]> {
    return scrubbed(target, () => this.fetchModelList(target));
  }

  private async fetchModelList(
    target: Pick<WireChannel, 'type' | 'baseUrl' | 'key'>,
  ): Promise<string[]> {
    const base = baseUrlOf(target.type, target.baseUrl);
    const answer = await this.call(
      `${base}/v1/models`,
      { headers: { authorization: `Bearer ${target.key}` } },
      this.timeoutMs,
    );
    if (answer.status !== 200) throw new UpstreamError(failureOf(answer));
    const data = (answer.body as { data?: unknown } | undefined)?.data;
    if (!Array.isArray(data))
      throw new UpstreamError(httpFailure(answer.status, 'no model list in the answer'));
    const ids = data
      .map((m) => (m && typeof m === 'object' ? (m as { id?: unknown }).id : undefined))
      .filter((id): id is string => typeof id === 'string' && id !== '');
    return [...new Set(ids)];
  }

  /** The balance reported by the provider's billing API, in the provider's unit. */
  balance(target: Pick<WireChannel, 'type' | 'baseUrl' | 'key'>): Promise<number> {
    return scrubbed(target, () => this.fetchBalance(target));
  }

  private async fetchBalance(
    target: Pick<WireChannel, 'type' | 'baseUrl' | 'key'>,
  ): Promise<number> {
    const base = baseUrlOf(target.type, target.baseUrl);
    const bearer = { authorization: `Bearer ${target.key}` };
    const get = async (path: string, headers: Record<string, string> = bearer) => {
      const answer = await this.call(`${base}${path}`, { headers }, this.timeoutMs);
      if (answer.status !== 200) throw new UpstreamError(failureOf(answer));
      if (answer.body === undefined || answer.body === null || typeof answer.body !== 'object')
        throw unexpectedBalance;
      return answer.body as Record<string, unknown>;
    };
    /** A nested field of a JSON answer, undefined when any step is missing. */
    const field = (value: unknown, ...path: string[]): unknown =>
      path.reduce<unknown>(
        (at, name) =>
          at && typeof at === 'object' ? (at as Record<string, unknown>)[name] : undefined,
        value,
      );
    const unexpectedBalance = new UpstreamError(httpFailure(200, 'unexpected balance answer'));
    let value: unknown;
    switch (target.type) {
      case 1:
      case 8: {
        const subscription = await get('/v1/dashboard/billing/subscription');
        const day = (offset: number) =>
          new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
        const usage = await get(
          `/v1/dashboard/billing/usage?start_date=${day(-100)}&end_date=${day(1)}`,
        );
        value = Number(subscription['hard_limit_usd']) - Number(usage['total_usage']) / 100;
        break;
      }
      case 10: {
        const overview = await get('/api/report/getUserOverview', { 'api-key': target.key });
        if (overview['success'] !== true)
          throw new UpstreamError(
            httpFailure(
              200,
              typeof overview['message'] === 'string' ? overview['message'] : 'failed',
            ),
          );
        value = field(overview, 'data', 'totalPoints');
        break;
      }
      case 12:
        value = (await get('/dashboard/billing/credit_grants'))['total_remaining'];
        break;
      case 13:
        value = (await get('/dashboard/billing/credit_grants'))['total_available'];
        break;
      case 20: {
        const credits = await get('/v1/credits');
        value =
          Number(field(credits, 'data', 'total_credits')) -
          Number(field(credits, 'data', 'total_usage'));
        break;
      }
      case 40:
        value = field(await get('/v1/user/info'), 'data', 'totalBalance');
        break;
      case 43: {
        const infos = (await get('/user/balance'))['balance_infos'];
        const list = Array.isArray(infos) ? (infos as Array<Record<string, unknown>>) : [];
        value = (list.find((b) => b['currency'] === 'CNY') ?? list[0])?.['total_balance'];
        break;
      }
      default:
        // ChannelTasks asks only for the types whose table row says balanceApi.
        throw new Error(`no balance API for type ${target.type}`);
    }
    const balance = typeof value === 'string' ? Number.parseFloat(value) : Number(value);
    if (!Number.isFinite(balance)) throw unexpectedBalance;
    return Math.round(balance * 1e6) / 1e6;
  }

  async onApplicationShutdown(): Promise<void> {
    this.aborts.abort();
    await this.agent.close().catch(() => undefined);
  }
}

/** A provider may echo the key in its error text: it never leaves this module in clear. */
async function scrubbed<T>(
  target: Pick<WireChannel, 'type' | 'key'>,
  body: () => Promise<T>,
): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UpstreamError)
      throw new UpstreamError(scrubFailure(error.failure, channelScrubber(target)));
    throw error;
  }
}

/** A call that got no answer: a timeout (the provider may still be working) or a network error. */
function networkFailure(error: unknown, timeoutMs: number): AttemptFailure {
  const e = error as {
    name?: string;
    code?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  if (
    e?.name === 'TimeoutError' ||
    e?.code === 'UND_ERR_HEADERS_TIMEOUT' ||
    e?.code === 'UND_ERR_BODY_TIMEOUT'
  )
    return { kind: 'timeout', message: `timeout after ${timeoutMs / 1000}s` };
  const code = e?.code ?? e?.cause?.code;
  return {
    kind: 'network',
    message: code ? `${code}: ${e?.message ?? ''}`.trim() : (e?.message ?? String(error)),
  };
}
