import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import {
  ADMITTED,
  type AttemptFailure,
  ChannelStats,
  CooldownBook,
  countsAgainstBudget,
  disableReason,
  failureCoolsChannel,
  fallbackReason,
  FailureBudget,
  type LimitVerdict,
  channelProtocol,
  OPENAI_WIRE_ADAPTOR,
  RelayError,
  shouldRetry,
  TokenLimiter,
  UserRequestLimiter,
} from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import { clientWireOfIngress } from './client-wire';
import { ConvertedAttempts } from './converted-attempts';
import { NativeAttempts } from './native-attempts';
import { PassThroughAttempts } from './pass-through-attempts';
import { prepareRequest } from './prepare-request';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import type { RequestTracker } from '../observability/request-tracker';
import { finalError, unsupported } from './attempt-failures';
import { buildFailure } from './build-failure';
import { ChannelPicker } from './channel-picker';
import { keywordSentBy } from './client-sent-text';
import { fallbackModels, prepareFallback } from './prepare-fallback';
import type { AttemptResult, LastFailure, Prepared, RelayCall, Unreserved } from './relay-call';
import { relayError, sendError } from './relay-http';
import {
  BALANCE_BOOK_PORT,
  BALANCE_LEASES_PORT,
  type BalanceBookPort,
  type BalanceLeasesPort,
  RELAY_COMMANDS_PORT,
  type RelayCommandsPort,
  type RoutedChannel,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
  SCALE_OUT_LIMITS_PORT,
  type ScaleOutLimitsPort,
  USAGE_APPENDER_PORT,
  type UsageAppenderPort,
} from './relay-ports';
import { type RelaySettings, RelaySettingsView } from './relay-settings';
import { reservationOf, reservedCall } from './reserve-terms';
import { Settlement } from './settlement';
import { ReservationWaits } from '../billing/reservation-waits';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.tokens';
import { UpstreamPools } from './upstream-pools';
import { scrubbedResult } from './upstream-secrets';

/** RELAY_RESERVE_WAIT_MS's default (see README). */
const DEFAULT_RESERVE_WAIT_MS = 5_000;
/** Cool-down after a failure without Retry-After (one-hub's default). */
const DEFAULT_COOLDOWN_MS = 5_000;
/** A channel being auto-disabled is skipped until the routing table has dropped it. */
const DISABLING_COOLDOWN_MS = 60_000;
const ANY_MODEL = '*';

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
  /** What each channel × model recently did: adaptive routing's figures. */
  readonly channelStats = new ChannelStats();
  private readonly picker = new ChannelPicker(this.channelStats, this.cooldowns, ANY_MODEL);
  readonly tokenLimiter = new TokenLimiter(() => Date.now());
  readonly userLimiter = new UserRequestLimiter(() => Date.now());
  /** Injectable for tests that need a deterministic pick. */
  rng: () => number = Math.random;
  private readonly passThrough: PassThroughAttempts;
  private readonly converted: ConvertedAttempts;
  private readonly native: NativeAttempts;
  private readonly waits: ReservationWaits;

  constructor(
    private readonly settingsView: RelaySettingsView,
    pools: UpstreamPools,
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    @Inject(USAGE_APPENDER_PORT) private readonly appender: UsageAppenderPort,
    @Inject(RELAY_COMMANDS_PORT) private readonly commands: RelayCommandsPort,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    @Optional() @Inject(BALANCE_LEASES_PORT) private readonly leases?: BalanceLeasesPort,
    @Optional()
    @Inject(APP_CONFIG)
    config?: Pick<AppConfig, 'relayReserveWaitMs' | 'billingDurability'>,
    @Optional()
    @Inject(SCALE_OUT_LIMITS_PORT)
    private readonly scaleOutLimits?: ScaleOutLimitsPort,
  ) {
    this.waits = new ReservationWaits(book, config?.relayReserveWaitMs ?? DEFAULT_RESERVE_WAIT_MS);
    const settlement = new Settlement(
      book,
      appender,
      commands,
      this.tokenLimiter,
      this.userLimiter,
      config?.billingDurability === 'strict',
      this.logger,
      scaleOutLimits,
    );
    this.passThrough = new PassThroughAttempts(pools, settlement);
    this.converted = new ConvertedAttempts(pools, settlement);
    this.native = new NativeAttempts(pools, settlement);
  }

  /** Relays one call and writes the answer (or the error) to `res`. Never throws. */
  async relay(call: RelayCall, res: ServerResponse): Promise<void> {
    let limits: LimitVerdict = { ok: true, release: () => undefined };
    /** Scale-out: what the limits held across processes admitted (a concurrency slot). */
    let shared: LimitVerdict = ADMITTED;
    const wire = clientWireOfIngress(call.ingress);
    try {
      const settings = this.settingsView.current();
      // new-api's ModelRequestRateLimit sits right after token auth on /v1 (not the playground):
      // every request counts, a refused or failing one included.
      if (!call.playground) {
        let userVerdict = this.userLimiter.admit(call.caller.user.id, settings.userLimits);
        // Scale-out: the same counts across processes (awaited only when a slice is taken).
        if (userVerdict.ok && this.scaleOutLimits?.active) {
          const counted = this.scaleOutLimits.admitUser(call.caller.user.id, settings.userLimits);
          userVerdict = counted instanceof Promise ? await counted : counted;
        }
        if (!userVerdict.ok) {
          return sendError(
            res,
            this.limitError(call.lang, userVerdict, settings),
            call.requestId,
            wire,
          );
        }
      }
      const prepared = prepareRequest(call, settings, wire, this.routing);
      if (prepared instanceof RelayError) return sendError(res, prepared, call.requestId, wire);
      limits = this.admitLimits(call);
      if (!limits.ok) {
        const error = this.limitError(call.lang, limits, settings);
        return sendError(res, error, call.requestId, wire);
      }
      const token = call.caller.token;
      if (token && this.scaleOutLimits?.active) {
        const admitted = this.scaleOutLimits.admitToken(token.id, token.rateLimits);
        shared = admitted instanceof Promise ? await admitted : admitted;
        if (!shared.ok) {
          const error = this.limitError(call.lang, shared, settings);
          return sendError(res, error, call.requestId, wire);
        }
      }
      const reserved = await this.reserve(prepared);
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
      if (shared.ok) shared.release();
    }
  }

  /** The call's reservation on the book, or the refusal the client is sent. */
  private async reserve(prepared: Unreserved): Promise<Prepared | RelayError> {
    const args = reservationOf(prepared);
    // Scale-out: a lease this process lacks is taken first (awaited, once per slice).
    let result = this.leases?.active
      ? await this.leases.reserve(...args)
      : this.book.reserve(...args);
    // Short only of the payer's open reservations: wait for them (bounded) before refusing.
    if (!result.ok && result.waitable) result = await this.waits.wait(args, result);
    return reservedCall(prepared, result, this.book);
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

  /** The attempts, then the fallback models' (docs/relay.md "Model fallbacks"); the answer. */
  private async attempts(first: Prepared, res: ServerResponse): Promise<void> {
    /** The call as last reserved, and the one whose failure the client is told about. */
    let p = first;
    let failed = first;
    let outcome: 'answered' | LastFailure | undefined;
    try {
      outcome = await this.tryChannels(p, res);
      // An answered call (nearly every call) looks up no fallback list.
      const fallbacks = outcome === 'answered' ? [] : fallbackModels(first);
      for (const model of fallbacks) {
        // Only failures move on (a model without channels keeps its error), before any byte.
        if (outcome === 'answered' || !outcome || res.headersSent || res.destroyed) break;
        const reason = fallbackReason(outcome.failure, p.settings.fallbackSwitches);
        if (!reason) break;
        const next = prepareFallback(p, model, reason, this.routing);
        if (next instanceof RelayError) continue;
        // The next model is reserved at its own price; refused, the last failure is the answer.
        this.book.release(p.reservation);
        const reserved = await this.reserve(next);
        if (reserved instanceof RelayError) break;
        p = reserved;
        p.call.trace.fallback = reason;
        // A fallback whose channels left the routing table meanwhile tried none: the last
        // failure stands.
        const tried = await this.tryChannels(p, res);
        if (tried !== undefined) [outcome, failed] = [tried, p];
      }
    } finally {
      // Settled when answered (then this is a no-op); released on failure and on any throw, so
      // no path keeps a user's quota reserved until the next restart.
      this.book.release(p.reservation);
    }
    if (outcome === 'answered') return;
    const error = finalError(failed.call.lang, failed.group, failed.facts.model, outcome);
    sendError(res, error, failed.call.requestId, failed.client);
    // Only a call an upstream failed is an error row (as new-api): no channel, no row.
    if (outcome && failed.settings.errorLog) this.recordFailure(failed, outcome, error);
  }

  /** The failed call's RequestFailed (the error log row); its append failing is only logged. */
  private recordFailure(p: Prepared, last: LastFailure, error: RelayError): void {
    const { call } = p;
    const user = call.caller.user;
    this.appender
      .appendFailure?.(buildFailure(p, last, error, Date.now()), {
        ip: call.ip,
        actor: { kind: 'user', id: user.id, role: user.role },
        correlationId: call.correlationId,
      })
      .catch((e: unknown) => this.logger.error(`failure append ${call.requestId}: ${String(e)}`));
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
          : this.picker.pick(
              this.routing.candidates(group, facts.model),
              attempt,
              tried,
              facts,
              settings.routingStrategy,
              this.rng,
            );
      if (!channel) break;
      tried.add(channel.id);
      p.chain.push(channel.id);
      call.trace.routing = pinned === undefined ? settings.routingStrategy : undefined;
      call.trace.channelId = channel.id;
      call.trace.retries = attempt;
      const attemptStart = performance.now();
      this.channelStats.began(channel.id, facts.model, facts.stream);
      const result = scrubbedResult(await this.attempt(p, channel, res), channel);
      const attemptMs = performance.now() - attemptStart;
      this.tracker.upstreamDone(channel.id, attemptMs / 1000);
      this.channelStats.ended(channel.id, facts.model, facts.stream, {
        ok: result.kind === 'answered' || result.notServedHere === true,
        // Streams are judged by their first token (the length of the answer is the client's).
        latencyMs: facts.stream ? (call.trace.ttftMs ?? attemptMs) : attemptMs,
      });
      if (result.kind === 'answered') {
        this.budget.succeeded(channel.id, facts.model);
        return 'answered';
      }
      last = { failure: result.failure, channel };
      const retriesLeft = settings.retryTimes - attempt;
      if (!result.notServedHere) this.afterFailure(p, channel, result.failure, result.retryAfterMs);
      const retry = result.notServedHere
        ? retriesLeft > 0 && pinned === undefined
        : shouldRetry(result.failure, {
            retriesLeft,
            pinned: pinned !== undefined,
            ranges: settings.retryRanges,
          });
      if (!retry || res.destroyed) break;
    }
    return last;
  }

  private afterFailure(
    p: Prepared,
    channel: RoutedChannel,
    failure: AttemptFailure,
    retryAfter: number | undefined,
  ): void {
    const model = p.facts.model;
    const s = p.settings;
    if (failureCoolsChannel(failure))
      this.cooldowns.cool(channel.id, model, retryAfter ?? DEFAULT_COOLDOWN_MS);
    if (!s.autoDisable || !channel.autoBan) return;
    let reason = disableReason(failure, channel.type, s.disableKeywords, keywordSentBy(p));
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
      return this.native.attempt(p, channel, res, protocol.adaptor, protocol.native);
    }
    if (protocol.kind === 'adaptor' || p.call.ingress) {
      const adaptor = protocol.kind === 'adaptor' ? protocol.adaptor : OPENAI_WIRE_ADAPTOR;
      if (
        !p.call.ingress &&
        p.call.endpoint === 'responses' &&
        !adaptor.endpoints.has('responses')
      ) {
        return this.converted.responsesOverChat(p, channel, res, adaptor);
      }
      if (!adaptor.endpoints.has(p.call.ingress ? 'chat' : p.call.endpoint) || !p.hub) {
        return unsupported(channel.type, p.call.endpoint);
      }
      return this.converted.convert(p, channel, res, adaptor, p.hub);
    }
    return this.passThrough.attempt(p, channel, res);
  }
}
