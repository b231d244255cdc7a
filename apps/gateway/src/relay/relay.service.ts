import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  ceilingReservation,
  chargeFor,
  modelMaxOutput,
  OUTPUT_FLOOR_TOKENS,
  quotePrice,
  affordableCeiling,
  type RequestRelayed,
  type TokenUsage,
} from '@tollgate/domain';
import {
  ADMITTED,
  type AttemptFailure,
  completionTextOfJson,
  CooldownBook,
  countsAgainstBudget,
  countText,
  cutEnding,
  disableReason,
  eventData,
  estimatePromptTokens,
  FailureBudget,
  type JsonObject,
  type LimitVerdict,
  mapStatusCode,
  multipartBoundary,
  OutputMeter,
  outgoingJson,
  parseJsonObject,
  readMultipartField,
  channelProtocol,
  channelScrubber,
  ingressCodec,
  OPENAI_WIRE_ADAPTOR,
  RelayError,
  rawWithCeiling,
  replaceMultipartField,
  reportsStreamUsage,
  requestFacts,
  type RequestFacts,
  retryAfterMs,
  selectChannel,
  SensitiveSseFilter,
  shouldRetry,
  SseUsageReader,
  StreamTokenCounter,
  TokenLimiter,
  upstreamErrorInfo,
  upstreamModelName,
  upstreamTarget,
  type UpstreamUsage,
  usageFromJson,
  UserRequestLimiter,
} from '@tollgate/relay';
import { budgetRefusal, isBudgetRefusal } from './budget-refusal';
import { refusedByOptions, sensitiveAnswer } from './relay-option-checks';
import type { Dispatcher } from 'undici';
import type { Lang } from '../shared/i18n/messages';
import { ClientStream, pipeUpstream } from './client-stream';
import { type ClientWire, clientWireOfIngress, openAiClient } from './client-wire';
import { ConvertedAttempts } from './converted-attempts';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import type { RequestTracker } from '../observability/request-tracker';
import { FinalEventHold } from './final-event-hold';
import { MeteredSse } from './metered-sse';
import {
  type AttemptResult,
  type LastFailure,
  outputAllowance,
  type Prepared,
  type RelayCall,
  type Unreserved,
} from './relay-call';
import { relayError, sendBytes, sendError } from './relay-http';
import { groupFor, modelRefusal, noChannel, routeRefusal } from './relay-routing';
import {
  BALANCE_BOOK_PORT,
  BALANCE_LEASES_PORT,
  type BalanceBookPort,
  type BalanceLeasesPort,
  leasesOf,
  RELAY_COMMANDS_PORT,
  type RelayCommandsPort,
  type ReserveResult,
  type RoutedChannel,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
  USAGE_APPENDER_PORT,
  type UsageAppenderPort,
} from './relay-ports';
import { type RelaySettings, RelaySettingsView } from './relay-settings';
import { ReservationWaits } from '../billing/reservation-waits';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../infrastructure/injection-tokens';
import {
  MAX_ERROR_BODY_BYTES,
  MAX_JSON_ANSWER_BYTES,
  networkFailure,
  readAll,
  readBounded,
} from './upstream-io';
import { UpstreamPools } from './upstream-pools';
import { scrubbedHeader, scrubbedResult } from './upstream-secrets';

/** RELAY_RESERVE_WAIT_MS's default (see README). */
const DEFAULT_RESERVE_WAIT_MS = 5_000;
/** Cool-down after a failure without Retry-After (one-hub's default). */
const DEFAULT_COOLDOWN_MS = 5_000;
/** A channel being auto-disabled is skipped until the routing table has dropped it. */
const DISABLING_COOLDOWN_MS = 60_000;
const ANY_MODEL = '*';
/**
 * How a stream stopped on a sensitive word ends: chat and completions with [DONE] (the anchors sent
 * it and stopped); the Responses API has no [DONE], its stream just ends.
 */
const streamStopped = (endpoint: string): string =>
  endpoint === 'responses' ? '' : 'data: [DONE]\n\n';

/**
 * The relay pipeline: admission checks that need the body, reserve → attempts with retries →
 * answer → settle → one usage receipt; release when nothing was answered. Everything it reads is in
 * memory; the only I/O is the upstream call and the batched usage append.
 */
@Injectable()
export class RelayService {
  private readonly logger = new Logger(RelayService.name);
  readonly cooldowns = new CooldownBook(() => Date.now());
  readonly budget = new FailureBudget(() => Date.now());
  readonly tokenLimiter = new TokenLimiter(() => Date.now());
  readonly userLimiter = new UserRequestLimiter(() => Date.now());
  /** Injectable for tests that need a deterministic pick. */
  rng: () => number = Math.random;
  private readonly converted: ConvertedAttempts;
  private readonly waits: ReservationWaits;
  /** BILLING_DURABILITY=strict: an answer's last bytes wait for its receipt's commit. */
  private readonly strict: boolean;

  constructor(
    private readonly settingsView: RelaySettingsView,
    private readonly pools: UpstreamPools,
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    @Inject(USAGE_APPENDER_PORT) private readonly appender: UsageAppenderPort,
    @Inject(RELAY_COMMANDS_PORT) private readonly commands: RelayCommandsPort,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    @Optional() @Inject(BALANCE_LEASES_PORT) private readonly leases?: BalanceLeasesPort,
    @Optional()
    @Inject(APP_CONFIG)
    config?: Pick<AppConfig, 'relayReserveWaitMs' | 'billingDurability'>,
  ) {
    this.strict = config?.billingDurability === 'strict';
    this.waits = new ReservationWaits(book, config?.relayReserveWaitMs ?? DEFAULT_RESERVE_WAIT_MS);
    this.converted = new ConvertedAttempts(
      pools,
      (p, usage) => this.honouredCeiling(p, usage),
      { strict: this.strict, committed: (p, receipt, res) => this.committed(p, receipt, res) },
      (...args) => this.settle(...args),
    );
  }

  /** Relays one call and writes the answer (or the error) to `res`. Never throws. */
  async relay(call: RelayCall, res: ServerResponse): Promise<void> {
    let limits: LimitVerdict = { ok: true, release: () => undefined };
    const wire = clientWireOfIngress(call.ingress);
    try {
      const settings = this.settingsView.current();
      // new-api's ModelRequestRateLimit sits right after token auth on /v1 (not the playground):
      // every request counts, a refused or failing one included.
      if (!call.playground) {
        const userVerdict = this.userLimiter.admit(call.caller.user.id, settings.userLimits);
        if (!userVerdict.ok) {
          return sendError(
            res,
            this.limitError(call.lang, userVerdict, settings),
            call.requestId,
            wire,
          );
        }
      }
      const prepared = this.prepare(call, settings, wire);
      if (prepared instanceof RelayError) return sendError(res, prepared, call.requestId, wire);
      limits = this.admitLimits(call);
      if (!limits.ok) {
        const error = this.limitError(call.lang, limits, settings);
        return sendError(res, error, call.requestId, wire);
      }
      const args = this.reservationOf(prepared);
      // Scale-out: a lease this process lacks is taken first (awaited, once per slice).
      let result = this.leases?.active
        ? await this.leases.reserve(...args)
        : this.book.reserve(...args);
      // Short only of the payer's open reservations: wait for them (bounded) before refusing.
      if (!result.ok && result.waitable) result = await this.waits.wait(args, result);
      const reserved = this.reserved(prepared, result);
      if (reserved instanceof RelayError) return sendError(res, reserved, call.requestId, wire);
      await this.attempts(reserved, res);
    } catch (error) {
      this.logger.error(`relay ${call.requestId}: ${(error as Error).stack ?? String(error)}`);
      if (!res.headersSent) {
        sendError(
          res,
          relayError({
            lang: call.lang,
            status: 500,
            key: 'common.internal_error',
            type: 'tollgate_error',
            code: 'internal',
          }),
          call.requestId,
          wire,
        );
      } else res.destroy();
    } finally {
      if (limits.ok) limits.release();
    }
  }

  private prepare(
    call: RelayCall,
    settings: RelaySettings,
    wire: ClientWire,
  ): Unreserved | RelayError {
    const { lang, caller } = call;
    let body: JsonObject | undefined;
    let hub: JsonObject | undefined;
    let client = wire;
    let boundary: string | undefined;
    let facts: RequestFacts;
    if (call.ingress) {
      body = parseJsonObject(call.raw);
      if (!body) return this.badBody(lang);
      const converted = ingressCodec(call.ingress)?.toOpenAi(body, {
        model: call.modelFromPath,
        stream: call.streamFromPath,
      });
      if (converted === undefined) return this.badBody(lang);
      if (typeof converted === 'string') {
        return new RelayError(400, converted, 'invalid_request_error', 'invalid_request');
      }
      hub = converted;
      facts = requestFacts('chat', hub);
    } else if (call.endpoint === 'audioTranscriptions' || call.endpoint === 'audioTranslations') {
      boundary = multipartBoundary(call.contentType);
      if (!boundary) return this.badBody(lang);
      const model = readMultipartField(call.raw, boundary, 'model')?.trim() || 'whisper-1';
      facts = { model, stream: false, maxTokens: undefined, n: 1, choices: 1 };
    } else {
      body = parseJsonObject(call.raw);
      if (!body) return this.badBody(lang);
      facts = requestFacts(call.endpoint, body);
      if (call.modelFromPath) facts = { ...facts, model: call.modelFromPath };
      hub = body;
      if (call.playground && 'group' in body) {
        const { group: _group, ...rest } = body;
        hub = rest;
      }
      if (facts.stream) client = openAiClient(includesUsage(body));
    }
    const model = facts.model;
    if (model === '') {
      return relayError({
        lang,
        status: 400,
        key: 'relay.model_missing',
        type: 'invalid_request_error',
        code: 'model_missing',
      });
    }
    call.trace.model = model;
    const token = caller.token;
    const notAllowed = modelRefusal(lang, token, model);
    if (notAllowed) return notAllowed;
    const requestedGroup = call.playground
      ? typeof body?.group === 'string'
        ? body.group
        : ''
      : (token?.group ?? '');
    const group = groupFor(caller, requestedGroup, settings);
    const quoted = quotePrice(settings.price, model, group);
    if (!quoted.ok) {
      return relayError({
        lang,
        status: 403,
        key: 'relay.price_not_configured',
        params: { model },
        type: 'permission_error',
        code: 'model_price_error',
      });
    }
    const unroutable = routeRefusal(this.routing, lang, caller, group, model);
    if (unroutable) return unroutable;
    const refused = refusedByOptions(call, settings, hub, boundary !== undefined);
    if (refused) return refused;
    const endpoint = call.ingress ? 'chat' : call.endpoint;
    const promptEstimate = hub ? estimatePromptTokens(endpoint, hub) : 0;
    const bounded = endpoint === 'chat' || endpoint === 'completions' || endpoint === 'responses';
    return {
      call,
      settings,
      facts,
      body,
      hub,
      client,
      boundary,
      group,
      quote: quoted.quote,
      promptEstimate,
      choices: facts.choices,
      askedCeiling: bounded
        ? (facts.maxTokens ?? modelMaxOutput(settings.maxOutput, model))
        : undefined,
      chain: [],
    };
  }

  private badBody(lang: Lang): RelayError {
    return relayError({
      lang,
      status: 400,
      key: 'relay.invalid_body',
      type: 'invalid_request_error',
      code: 'invalid_request',
    });
  }

  private admitLimits(call: RelayCall): LimitVerdict {
    const token = call.caller.token;
    return token ? this.tokenLimiter.admit(token.id, token.rateLimits) : ADMITTED;
  }

  private limitError(
    lang: Lang,
    verdict: Extract<LimitVerdict, { ok: false }>,
    settings: RelaySettings,
  ): RelayError {
    const code = {
      rpm: 'relay.rate_rpm',
      tpm: 'relay.rate_tpm',
      concurrency: 'relay.rate_concurrency',
      user_requests: 'relay.rate_user_requests',
      user_successes: 'relay.rate_user_successes',
    }[verdict.limit];
    return relayError({
      lang,
      status: 429,
      key: code,
      params: { max: verdict.max, minutes: settings.userLimits.durationMinutes },
      type: 'rate_limit_error',
      code: 'rate_limit_exceeded',
      retryAfter: verdict.retryAfter,
    });
  }

  /**
   * The book's reserve arguments for a call: the price of its asked ceiling plus the prompt, or
   * less down to the price of OUTPUT_FLOOR_TOKENS (the ceiling is then lowered to fit). Per-call
   * prices and endpoints without a ceiling field reserve one exact amount (those without a field:
   * PreConsumedQuota output tokens).
   */
  private reservationOf(p: Unreserved): Parameters<BalanceBookPort['reserve']> {
    const { call, quote, settings, promptEstimate: prompt, askedCeiling: asked } = p;
    const quotaPerUnit = settings.price.quotaPerUnit;
    const calls = quote.mode === 'price' ? p.facts.n : p.choices;
    const price = (ceiling: number) =>
      // Absurd max_tokens / n stay a (refusable) number instead of breaking the book's integer check.
      Math.min(
        ceilingReservation(quote, prompt, ceiling, quotaPerUnit, calls),
        Number.MAX_SAFE_INTEGER,
      );
    const wanted = price(asked ?? settings.price.preConsumedQuota);
    const floor =
      asked === undefined || asked <= OUTPUT_FLOOR_TOKENS ? wanted : price(OUTPUT_FLOOR_TOKENS);
    // The book skips the token's own quota when it is unlimited; it still counts its usage.
    return [call.requestId, call.caller.user.id, call.caller.token?.id ?? 0, wanted, floor];
  }

  /** The call with its reservation and ceiling, or the refusal as the client sees it. */
  private reserved(p: Unreserved, result: ReserveResult): Prepared | RelayError {
    const { call } = p;
    if (result.ok) {
      const reservation = result.reservation;
      const asked = p.askedCeiling;
      // Reserved less than wanted (a limit lowered it): the ceiling that amount pays for.
      const ceiling =
        asked === undefined || result.limitedBy === undefined
          ? asked
          : affordableCeiling(
              p.quote,
              p.promptEstimate,
              asked,
              reservation.amount,
              p.settings.price.quotaPerUnit,
              p.choices,
            );
      const lowered = ceiling !== undefined && asked !== undefined && ceiling < asked;
      return { ...p, reservation, ceiling, loweredBy: lowered ? result.limitedBy : undefined };
    }
    if (isBudgetRefusal(result)) return budgetRefusal(call.lang, result);
    // A limited token's holder learns what that token has left, never its owner's balance.
    const token = call.caller.token;
    const remain =
      token && !token.unlimitedQuota
        ? (this.book.tokenRemaining(token.id) ?? 0)
        : (this.book.userBalance(call.caller.user.id) ?? 0);
    return relayError({
      lang: call.lang,
      status: 403,
      key: result.reason === 'user_quota' ? 'relay.user_quota' : 'relay.token_quota',
      params: { remain },
      type: 'insufficient_quota',
      code: result.reason === 'user_quota' ? 'insufficient_user_quota' : 'insufficient_token_quota',
    });
  }

  private async attempts(p: Prepared, res: ServerResponse): Promise<void> {
    let outcome: 'answered' | LastFailure | undefined;
    try {
      outcome = await this.tryChannels(p, res);
    } finally {
      // Settled when answered (then this is a no-op); released on failure and on any throw, so
      // no path keeps a user's quota reserved until the next restart.
      this.book.release(p.reservation);
    }
    if (outcome === 'answered') return;
    const error = this.finalError(p.call, p.group, p.facts.model, outcome);
    sendError(res, error, p.call.requestId, p.client);
  }

  /** The attempts in routing order: 'answered', or the last failure (none when no channel). */
  private async tryChannels(
    p: Prepared,
    res: ServerResponse,
  ): Promise<'answered' | LastFailure | undefined> {
    const { call, settings, facts, group } = p;
    const pinned = call.caller.pinnedChannelId;
    const tried = new Set<number>();
    let last: LastFailure | undefined;
    for (let attempt = 0; attempt <= settings.retryTimes; attempt++) {
      const channel =
        pinned !== undefined
          ? attempt === 0
            ? this.routing.channel(pinned)
            : undefined
          : selectChannel(this.routing.candidates(group, facts.model), {
              attempt,
              tried,
              isCooling: (id) =>
                this.cooldowns.isCooling(id, facts.model) ||
                this.cooldowns.isCooling(id, ANY_MODEL),
              rng: this.rng,
            });
      if (!channel) break;
      tried.add(channel.id);
      p.chain.push(channel.id);
      call.trace.channelId = channel.id;
      call.trace.retries = attempt;
      const attemptStart = performance.now();
      const result = scrubbedResult(await this.attempt(p, channel, res), channel);
      this.tracker.upstreamDone(channel.id, (performance.now() - attemptStart) / 1000);
      if (result.kind === 'answered') {
        this.budget.succeeded(channel.id, facts.model);
        return 'answered';
      }
      last = { failure: result.failure, channel };
      this.afterFailure(p, channel, result.failure, result.retryAfterMs);
      const retriesLeft = settings.retryTimes - attempt;
      const retry = shouldRetry(result.failure, {
        retriesLeft,
        pinned: pinned !== undefined,
        ranges: settings.retryRanges,
      });
      if (!retry || res.destroyed) break;
    }
    return last;
  }

  private finalError(
    call: RelayCall,
    group: string,
    model: string,
    last: LastFailure | undefined,
  ): RelayError {
    const lang = call.lang;
    if (!last) return noChannel(lang, group, model);
    const { failure, channel } = last;
    if (failure.kind === 'network') {
      return relayError({
        lang,
        status: mapStatusCode(502, channel.statusCodeMapping),
        key: 'relay.upstream_unreachable',
        type: 'upstream_error',
        code: 'upstream_unreachable',
      });
    }
    if (failure.kind === 'timeout') {
      return relayError({
        lang,
        status: mapStatusCode(504, channel.statusCodeMapping),
        key: 'relay.upstream_timeout',
        type: 'upstream_error',
        code: 'upstream_timeout',
      });
    }
    const status = mapStatusCode(failure.status, channel.statusCodeMapping);
    if (failure.status === 429) {
      // The anchors hide which upstream was saturated; the client only needs to back off.
      return relayError({
        lang,
        status,
        key: 'relay.upstream_saturated',
        type: 'rate_limit_error',
        code: failure.code || 'upstream_rate_limited',
        retryAfter: 1,
      });
    }
    return new RelayError(
      status,
      failure.message,
      (failure.type || 'upstream_error') as 'upstream_error',
      failure.code || null,
    );
  }

  private afterFailure(
    p: Prepared,
    channel: RoutedChannel,
    failure: AttemptFailure,
    retryAfter: number | undefined,
  ): void {
    const model = p.facts.model;
    const s = p.settings;
    this.cooldowns.cool(channel.id, model, retryAfter ?? DEFAULT_COOLDOWN_MS);
    if (!s.autoDisable || !channel.autoBan) return;
    let reason = disableReason(failure, channel.type, s.disableKeywords);
    if (
      reason === undefined &&
      countsAgainstBudget(failure) &&
      this.budget.record(channel.id, model, s.failureBudget.count, s.failureBudget.windowMs)
    ) {
      reason = `${s.failureBudget.count} failures in ${s.failureBudget.windowMs / 1000}s on ${model}: ${failure.message}`;
    }
    if (reason === undefined) return;
    this.cooldowns.cool(channel.id, ANY_MODEL, DISABLING_COOLDOWN_MS);
    this.commands
      .disableChannel(channel.id, reason.slice(0, 500), model)
      .catch((error: unknown) =>
        this.logger.warn(`disable channel ${channel.id}: ${String(error)}`),
      );
  }

  /** One upstream call; answers the client when it succeeds. */
  private async attempt(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
  ): Promise<AttemptResult> {
    const protocol = channelProtocol(channel.type);
    if (protocol.kind === 'unsupported') return unsupported(channel.type);
    if (protocol.kind === 'adaptor' && protocol.native && protocol.native.kind === p.call.ingress) {
      return this.converted.native(p, channel, res, protocol.adaptor, protocol.native);
    }
    if (protocol.kind === 'adaptor' || p.call.ingress) {
      const adaptor = protocol.kind === 'adaptor' ? protocol.adaptor : OPENAI_WIRE_ADAPTOR;
      if (!adaptor.endpoints.has(p.call.ingress ? 'chat' : p.call.endpoint) || !p.hub) {
        return unsupported(channel.type, p.call.endpoint);
      }
      return this.converted.convert(p, channel, res, adaptor, p.hub);
    }
    return this.passThrough(p, channel, res);
  }

  /** An OpenAI client and an OpenAI-wire channel: the client's bytes go as they came. */
  private async passThrough(
    p: Prepared,
    channel: RoutedChannel,
    res: ServerResponse,
  ): Promise<AttemptResult> {
    const { call, facts } = p;
    const upstreamModel = upstreamModelName(channel, facts.model);
    // The Responses API always reports usage (in response.completed) and has no include_usage.
    const includeUsage =
      facts.stream && call.endpoint !== 'responses' && reportsStreamUsage(channel.type);
    let outBody: Buffer;
    if (p.boundary !== undefined) {
      outBody =
        upstreamModel !== facts.model
          ? replaceMultipartField(call.raw, p.boundary, 'model', upstreamModel)
          : call.raw;
    } else {
      const json = ceiled(p, upstreamModel);
      // global.pass_through_request_enabled: the client's bytes as they came but for the output
      // ceiling (no mapped model in the body, no include_usage: a stream without usage is
      // counted locally), as new-api sends them.
      outBody =
        p.settings.providers.passThrough && !call.playground
          ? json.raw
          : outgoingJson(json.raw, json.body, { model: upstreamModel, includeUsage });
    }
    let answer: Dispatcher.ResponseData;
    try {
      // Inside the try: a base URL the channel rules let through but URL cannot parse (an empty
      // one on a Custom or Azure channel) is this channel's failure, not the request's 500.
      const target = upstreamTarget(
        channel,
        call.endpoint,
        upstreamModel,
        call.contentType,
        facts.stream,
      );
      answer = await this.pools.pool(target.origin).request({
        method: 'POST',
        path: target.path,
        headers: target.headers,
        body: outBody,
      });
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    if (answer.statusCode < 200 || answer.statusCode >= 300) {
      const text = await readBounded(answer.body, MAX_ERROR_BODY_BYTES);
      const info = upstreamErrorInfo(text);
      return {
        kind: 'failed',
        failure: { kind: 'http', status: answer.statusCode, ...info },
        retryAfterMs: retryAfterMs(answer.headers['retry-after'], Date.now()),
      };
    }
    const contentType = scrubbedHeader(answer.headers['content-type'], channel);
    if (facts.stream && contentType.includes('text/event-stream')) {
      await this.streamAnswer(p, channel, upstreamModel, answer, res);
    } else {
      const done = await this.wholeAnswer(p, channel, upstreamModel, answer, contentType, res);
      if (done) return done;
    }
    return { kind: 'answered' };
  }

  /**
   * Non-stream answers: read whole (bounded), settle, send the bytes as they came (strict
   * durability: once the receipt is committed).
   */
  private async wholeAnswer(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    answer: Dispatcher.ResponseData,
    contentType: string,
    res: ServerResponse,
  ): Promise<AttemptResult | undefined> {
    let raw: Buffer;
    try {
      raw = channelScrubber(channel).bytes(await readAll(answer.body, MAX_JSON_ANSWER_BYTES));
    } catch (error) {
      return { kind: 'failed', failure: networkFailure(error) };
    }
    const firstByteAt = Date.now();
    // Parsed only when the output check is on: the pass-through answer is otherwise never read.
    const refused =
      p.settings.sensitive.output && contentType.includes('json')
        ? sensitiveAnswer(p, parseJsonObject(raw))
        : undefined;
    const { usage, estimated } = this.usageOfWhole(p, raw, contentType);
    const receipt = this.settle(p, channel, upstreamModel, usage, estimated, firstByteAt, false);
    if (this.strict && !(await this.committed(p, receipt, res))) return undefined;
    if (refused) sendError(res, refused, p.call.requestId, p.client);
    else
      sendBytes(res, answer.statusCode, contentType || 'application/json', raw, p.call.requestId);
    return undefined;
  }

  /**
   * Strict durability: waits for the receipt's commit; when it failed, the answer is not given
   * (an error instead, or a stream broken off) and false is returned.
   */
  async committed(p: Prepared, receipt: Promise<unknown>, res: ServerResponse): Promise<boolean> {
    try {
      await receipt;
      return true;
    } catch {
      if (res.headersSent) res.destroy();
      else
        sendError(
          res,
          relayError({
            lang: p.call.lang,
            status: 500,
            key: 'common.internal_error',
            type: 'tollgate_error',
            code: 'internal',
          }),
          p.call.requestId,
          p.client,
        );
      return false;
    }
  }

  private usageOfWhole(
    p: Prepared,
    raw: Buffer,
    contentType: string,
  ): { usage: TokenUsage; estimated: boolean } {
    const endpoint = p.call.endpoint;
    if (contentType.includes('json')) {
      const reported = usageFromJson(raw);
      if (reported) return { usage: reported, estimated: false };
    }
    if (endpoint === 'audioTranscriptions' || endpoint === 'audioTranslations') {
      const parsed = contentType.includes('json') ? parseJsonObject(raw) : undefined;
      const text = parsed ? completionTextOfJson(parsed) : raw.toString('utf8');
      return {
        usage: { promptTokens: 0, completionTokens: countText(text), cachedTokens: 0 },
        estimated: true,
      };
    }
    let completion = 0;
    if (endpoint === 'chat' || endpoint === 'completions') {
      completion = countText(completionTextOfJson(parseJsonObject(raw)));
    }
    return {
      usage: { promptTokens: p.promptEstimate, completionTokens: completion, cachedTokens: 0 },
      estimated: true,
    };
  }

  /**
   * SSE answers: bytes go to the client as they arrive; the reader watches them for usage, the
   * meter for an upstream writing past its reservation (cut, ended cleanly, billed for what was
   * delivered). If the client leaves, the upstream is still read (bounded) so the work is billed.
   */
  private async streamAnswer(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    answer: Dispatcher.ResponseData,
    res: ServerResponse,
  ): Promise<void> {
    const reader = new SseUsageReader(() => Date.now());
    const client = new ClientStream(res, p.call.requestId);
    client.open();
    const output = p.settings.sensitive.output;
    // Off (the default): the bytes pass untouched, nothing is parsed.
    const guard = output
      ? new SensitiveSseFilter(output, p.settings.sensitive.streamQueue)
      : undefined;
    const meter = new OutputMeter(outputAllowance(p));
    // The text delivered before counting began: with the metered part, what a cut is billed for.
    let before = '';
    let counter: StreamTokenCounter | undefined;
    const metered = new MeteredSse(
      meter,
      (bytes, exact) => {
        if (!exact || !counter) return NO_OUTPUT;
        const text = completionTextOfJson(parseJsonObject(eventData(bytes)));
        return { text, tokens: counter.add(text) };
      },
      () => {
        before = reader.completionText();
        counter = new StreamTokenCounter(before);
        return countText(before);
      },
    );
    const hold = this.strict ? new FinalEventHold() : undefined;
    // The channel's key masked first: nothing after it sees the upstream's bytes unmasked.
    const secrets = channelScrubber(channel).stream();
    const pass = (chunk: Buffer): Buffer => {
      const allowed = metered.push(chunk);
      reader.push(chunk);
      return guard ? Buffer.from(guard.push(allowed)) : allowed;
    };
    const read = await pipeUpstream(
      answer,
      client,
      (chunk) => {
        const out = pass(secrets.push(chunk));
        return hold ? hold.push(out) : out;
      },
      () => metered.cut || guard?.hit !== undefined,
    );
    const sensitiveStop = read.stopped && !metered.cut;
    let owed = '';
    if (!read.stopped) {
      // What the scrubber held back (the beginning of a key, split by a chunk boundary), then an
      // event the upstream left unfinished.
      owed += pass(secrets.end()).toString('utf8');
      const rest = metered.rest();
      owed += guard ? guard.push(rest) : rest.toString('utf8');
    }
    const outcome = reader.end();
    // Output held past the reservation goes out only when the upstream's usage shows it kept to
    // its ceiling (by its own count); else the stream ends cut where the reservation did.
    if (metered.holding && !read.stopped) {
      if (outcome.usage && this.honouredCeiling(p, outcome.usage)) {
        const held = metered.releaseHeld();
        owed += guard ? guard.push(held) : held.toString('utf8');
      } else metered.cut = true;
    }
    // What the stream still owes, in order: an event the upstream left unfinished, the words the
    // guard held back, what strict durability holds until the commit, then the ending.
    if (guard && !sensitiveStop) owed += guard.end();
    if (hold) owed = hold.push(Buffer.from(owed)).toString('utf8') + hold.rest().toString('utf8');
    if (metered.cut) owed += cutEnding(cutWireOf(p.call.endpoint), cutContext(p), meter.tokens);
    else if (sensitiveStop) owed += streamStopped(p.call.endpoint);
    let usage: UpstreamUsage;
    let estimated = false;
    if (outcome.usage && !metered.cut) usage = outcome.usage;
    else {
      usage = {
        promptTokens: p.promptEstimate,
        completionTokens: metered.cut
          ? countText(before + metered.deliveredText)
          : reader.countCompletionLocally(),
        cachedTokens: 0,
      };
      estimated = true;
    }
    const firstAt = outcome.firstChunkAt ?? null;
    const receipt = this.settle(p, channel, upstreamModel, usage, estimated, firstAt, true, {
      cut: metered.cut,
    });
    if (this.strict && !(await this.committed(p, receipt, res))) return;
    client.finish(owed, read.broken);
  }

  /**
   * Whether the upstream's own usage shows it stayed within the ceiling it was sent: output held
   * past the reservation by our count may then go out (its tokenizer is not ours). The answer is
   * charged on that usage in full, a prompt larger than estimated included.
   */
  honouredCeiling(p: Prepared, usage: UpstreamUsage): boolean {
    return p.ceiling !== undefined && usage.completionTokens <= p.ceiling * p.choices;
  }

  /**
   * Charges the answer (the whole cost, even past the reservation: a debt when unpaid) and appends
   * its receipt; the promise settles when the receipt is committed.
   */
  settle(
    p: Prepared,
    channel: RoutedChannel,
    upstreamModel: string,
    usage: UpstreamUsage,
    estimated: boolean,
    firstAt: number | null,
    stream: boolean,
    how: { readonly cut?: boolean } = {},
  ): Promise<unknown> {
    const { call, quote, settings, reservation } = p;
    const receipt = chargeFor(quote, usage, settings.price.quotaPerUnit, p.facts.n);
    const charged = this.book.settle(reservation, receipt.quota);
    const token = call.caller.token;
    if (token)
      this.tokenLimiter.consumed(token.id, receipt.promptTokens + receipt.completionTokens);
    if (!call.playground) this.userLimiter.succeeded(call.caller.user.id);
    const now = Date.now();
    const overrun = charged - reservation.amount;
    // The upstream wrote more than the ceiling it was sent: counted against its channel.
    const ceilingIgnored =
      p.ceiling !== undefined && receipt.completionTokens > p.ceiling * p.choices;
    const data: RequestRelayed['data'] = {
      requestId: call.requestId,
      userId: call.caller.user.id,
      tokenId: token?.id ?? 0,
      tokenName: token?.name ?? '',
      group: p.group,
      model: p.facts.model,
      upstreamModel,
      channelId: channel.id,
      channelChain: [...p.chain],
      endpoint: call.route,
      promptTokens: receipt.promptTokens,
      completionTokens: receipt.completionTokens,
      cachedTokens: receipt.cachedTokens,
      ...(receipt.cacheCreationTokens > 0
        ? {
            cacheCreationTokens: receipt.cacheCreationTokens,
            cacheCreationRatio: receipt.cacheCreationRatio,
          }
        : {}),
      ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
      quota: charged,
      reserved: reservation.amount,
      ...leasesOf(reservation),
      ...(p.loweredBy && p.ceiling !== undefined
        ? { loweredCeiling: p.ceiling, loweredBy: p.loweredBy }
        : {}),
      ...(overrun > 0 ? { overrun } : {}),
      ...(ceilingIgnored ? { ceilingIgnored: true } : {}),
      ...(how.cut ? { streamCut: true } : {}),
      modelRatio: receipt.modelRatio,
      completionRatio: receipt.completionRatio,
      groupRatio: receipt.groupRatio,
      cacheRatio: receipt.cacheRatio,
      modelPrice: receipt.modelPrice,
      useTimeMs: now - call.startedAt,
      firstTokenMs: stream && firstAt !== null ? firstAt - call.startedAt : null,
      stream,
      estimated,
      ip: call.ip,
    };
    const trace = call.trace;
    trace.promptTokens = data.promptTokens;
    trace.completionTokens = data.completionTokens;
    trace.quota = charged;
    trace.ttftMs = data.firstTokenMs;
    trace.ceilingIgnored = ceilingIgnored;
    const user = call.caller.user;
    const appended = this.appender.append(data, {
      ip: call.ip,
      actor: { kind: 'user', id: user.id, role: user.role },
      correlationId: call.correlationId,
    });
    appended.catch((error: unknown) =>
      this.logger.error(`usage append ${call.requestId} failed: ${String(error)}`),
    );
    // Used up by its charges (not merely held by other requests' open reservations).
    if (token && !token.unlimitedQuota && (this.book.tokenSettledRemaining(token.id) ?? 1) <= 0) {
      this.commands
        .markTokenExhausted(token.id)
        .catch((error: unknown) => this.logger.warn(`mark token exhausted: ${String(error)}`));
    }
    return appended;
  }
}

/** The request's JSON with its output ceiling (the playground's own `group` member left out). */
function ceiled(p: Prepared, upstreamModel: string): { raw: Buffer; body: JsonObject } {
  let raw = p.call.raw;
  let body = p.body ?? {};
  if (p.call.playground && 'group' in body) {
    const { group: _group, ...rest } = body;
    body = rest;
    raw = Buffer.from(JSON.stringify(rest));
  }
  if (p.ceiling === undefined) return { raw, body };
  return rawWithCeiling(raw, body, ceilingWireOf(p.call.endpoint), p.ceiling, upstreamModel);
}

const NO_OUTPUT = { text: '', tokens: 0 };

/** The OpenAI endpoints that have a ceiling (chat, completions, responses) as their wire. */
function ceilingWireOf(endpoint: string): 'chat' | 'completions' | 'responses' {
  return endpoint === 'completions' || endpoint === 'responses' ? endpoint : 'chat';
}

const cutWireOf = ceilingWireOf;

/** The names a cut stream's closing events carry. */
export function cutContext(p: Prepared): { id: string; model: string; created: number } {
  return {
    id: `chatcmpl-${p.call.requestId}`,
    model: p.facts.model,
    created: Math.floor(p.call.startedAt / 1000),
  };
}

/** A channel whose type (or this endpoint on it) the relay cannot speak: that channel's failure. */
function unsupported(type: number, endpoint?: string): AttemptResult {
  return {
    kind: 'failed',
    failure: {
      kind: 'http',
      status: 501,
      message: endpoint
        ? `channel type ${type} does not support ${endpoint}`
        : `channel type ${type} is not supported by this relay`,
      type: 'tollgate_error',
      code: 'channel_type_unsupported',
    },
  };
}

function includesUsage(body: JsonObject): boolean {
  const options = body.stream_options;
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as JsonObject).include_usage === true
  );
}
