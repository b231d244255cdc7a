import fastifyCookie from '@fastify/cookie';
import { Inject, Injectable } from '@nestjs/common';
import { USER_ID_HEADER } from '@tollgate/contracts';
import {
  estimatePromptTokens,
  ingressCodec,
  type IngressKind,
  NOT_IMPLEMENTED_ROUTES,
  parseJsonObject,
  notImplemented,
  RELAY_ENDPOINTS,
  RelayError,
  type RelayEndpoint,
} from '@tollgate/relay';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { SESSION_COOKIE } from '../auth/session-codec';
import { ApiError } from '../shared/api-error';
import { type Lang, pickLang, translate } from '../shared/i18n/messages';
import { type Admission, RelayAdmission } from './relay-admission';
import { callerOf, closeUnlessDrainable, type GatedRoute, RelayGate } from './relay-gate';
import {
  CORS_HEADERS,
  RELAY_AUDIO_BODY_LIMIT,
  RELAY_JSON_BODY_LIMIT,
  relayError,
  sendError,
  sendJson,
} from './relay-http';
import { pathOfUrl, wireOfRelayPath } from './relay-paths';
import {
  BALANCE_BOOK_PORT,
  type BalanceBookPort,
  type RelayToken,
  type RelayUser,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
} from './relay-ports';
import { groupFor } from './relay-routing';
import { RelaySettingsView } from './relay-settings';
import { RelayService } from './relay.service';
import type { RelayCall } from './relay-call';
import { clientKey, listFormatOf } from './client-key';
import { clientWireOfIngress, OPENAI_CLIENT } from './client-wire';
import { modelEntry, modelList } from './model-lists';
import { TaskRoutes } from '../tasks/task-routes';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import { newRelayTrace } from '../observability/request-record';
import { requestRecordOf, type RequestTracker } from '../observability/request-tracker';
import { PendingWrites } from '../infrastructure/pending-writes';

export { RELAY_AUDIO_BODY_LIMIT, RELAY_JSON_BODY_LIMIT } from './relay-http';

/** Resolves the app's Authenticator (the playground signs in with the console session). */
export const PLAYGROUND_AUTHENTICATOR = Symbol('PLAYGROUND_AUTHENTICATOR');

type RelayParams = { Params: { model?: string; '*'?: string } };
type RawBodyRequest = FastifyRequest<RelayParams>;
type WildcardRequest = RawBodyRequest;

const MIB = 1024 * 1024;

/**
 * The relay's HTTP surface, registered as plain Fastify routes in their own encapsulated scope:
 * bodies arrive as raw Buffers (no JSON parse by the framework, no Nest pipes or guards), with
 * their own body limits, and the handlers write to the raw response.
 */
@Injectable()
export class RelayRoutes {
  constructor(
    private readonly relay: RelayService,
    private readonly admission: RelayAdmission,
    private readonly gate: RelayGate,
    private readonly settings: RelaySettingsView,
    @Inject(PLAYGROUND_AUTHENTICATOR) private readonly authenticator: () => Authenticator,
    @Inject(ROUTING_TABLE_PORT) private readonly routing: RoutingTablePort,
    @Inject(BALANCE_BOOK_PORT) private readonly book: BalanceBookPort,
    private readonly tasks: TaskRoutes,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    // A shutdown waits for the calls under way: they settle (and bill) after their client is gone.
    private readonly pending: PendingWrites,
  ) {}

  register(fastify: FastifyInstance): void {
    void fastify.register((scope, _opts, done) => {
      this.setup(scope);
      done();
    });
  }

  private setup(scope: FastifyInstance): void {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: RELAY_AUDIO_BODY_LIMIT },
      (_request, body, parsed) => parsed(null, body),
    );
    // The body parser's refusals (over the limit, a length that does not match): in the route's
    // protocol, and the rest of an upload Fastify stopped reading is not drained.
    scope.setErrorHandler(
      (error: Error & { statusCode?: number; code?: string }, request, reply) => {
        const requestId = this.tracker.ownIdOf(request.raw);
        const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 400;
        reply.hijack();
        closeUnlessDrainable(request.raw, reply.raw);
        const tooLarge = status === 413;
        const limit = request.routeOptions.bodyLimit ?? RELAY_JSON_BODY_LIMIT;
        sendError(
          reply.raw,
          tooLarge
            ? relayError({
                lang: langOf(request),
                status: 413,
                key: 'relay.body_too_large',
                params: { limit: Math.floor(limit / MIB) },
                type: 'invalid_request_error',
                code: 'request_too_large',
              })
            : new RelayError(
                status,
                error.message,
                'invalid_request_error',
                error.code ?? 'invalid_request',
              ),
          requestId,
          wireOfRelayPath(pathOfUrl(request.url)) ?? OPENAI_CLIENT,
        );
      },
    );
    const openAi = this.tokenGate('call', () => undefined);
    const openAiRead = this.tokenGate('read', () => undefined);
    const anthropic = this.tokenGate('call', () => 'anthropic');
    const anthropicRead = this.tokenGate('read', () => 'anthropic');
    const gemini = this.tokenGate('call', () => 'gemini');
    const geminiRead = this.tokenGate('read', () => 'gemini');
    // GET /v1/models answers (and refuses) in the protocol the client's headers speak.
    const listing = this.tokenGate('read', (request) =>
      listFormatOf(request.headers, queryOf(request)),
    );

    for (const [endpoint, tail] of Object.entries(RELAY_ENDPOINTS) as Array<
      [RelayEndpoint, string]
    >) {
      const audio = endpoint === 'audioTranscriptions' || endpoint === 'audioTranslations';
      scope.post<RelayParams>(
        `/v1${tail}`,
        { bodyLimit: audio ? RELAY_AUDIO_BODY_LIMIT : RELAY_JSON_BODY_LIMIT, onRequest: openAi },
        (request: RawBodyRequest, reply) => this.onRelay(request, reply, endpoint, `/v1${tail}`),
      );
    }
    scope.post<RelayParams>(
      '/v1/engines/:model/embeddings',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: openAi },
      (request: RawBodyRequest, reply) =>
        this.onRelay(
          request,
          reply,
          'embeddings',
          '/v1/engines/:model/embeddings',
          request.params.model,
        ),
    );
    scope.post<RelayParams>(
      '/v1/messages',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: anthropic },
      (request: RawBodyRequest, reply) => this.onMessages(request, reply),
    );
    scope.post<RelayParams>(
      '/v1/messages/count_tokens',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: anthropicRead },
      (request: RawBodyRequest, reply) => this.onCountTokens(request, reply),
    );
    scope.post(
      '/v1beta/models/*',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: gemini },
      (request, reply) => this.onGemini(request as WildcardRequest, reply),
    );
    scope.get('/v1beta/models', { onRequest: geminiRead }, (request, reply) =>
      this.onModels(request, reply, undefined, 'gemini'),
    );
    scope.get('/v1beta/models/*', { onRequest: geminiRead }, (request, reply) =>
      this.onModels(
        request,
        reply,
        ((request as WildcardRequest).params['*'] ?? '').replace(/^models\//, ''),
        'gemini',
      ),
    );
    scope.post(
      '/pg/chat/completions',
      {
        bodyLimit: RELAY_JSON_BODY_LIMIT,
        onRequest: this.gate.beforeAsync(
          'call',
          (request) => this.admitPlayground(request),
          () => OPENAI_CLIENT,
        ),
      },
      (request, reply) => this.onPlayground(request, reply),
    );
    scope.get('/v1/models', { onRequest: listing }, (request, reply) =>
      this.onModels(request, reply),
    );
    scope.get<RelayParams>('/v1/models/:model', { onRequest: listing }, (request, reply) =>
      this.onModels(request, reply, request.params.model ?? ''),
    );
    for (const prefix of ['', '/v1']) {
      scope.get(
        `${prefix}/dashboard/billing/subscription`,
        { onRequest: openAiRead },
        (request, reply) => this.onBilling(request, reply, 'subscription'),
      );
      scope.get(`${prefix}/dashboard/billing/usage`, { onRequest: openAiRead }, (request, reply) =>
        this.onBilling(request, reply, 'usage'),
      );
    }
    for (const route of NOT_IMPLEMENTED_ROUTES) {
      scope.route({
        method: route.method,
        url: route.url,
        onRequest: openAiRead,
        handler: (request, reply) => this.onNotImplemented(request, reply),
      });
    }
    // Midjourney and Suno (/mj, /mj-fast/mj, …, /suno): the same front, parsers and gate.
    this.tasks.register(scope);
    // The preflight is answered at its headers: Fastify would otherwise read whatever body an
    // OPTIONS request announces (up to the parser's 40 MB) before the handler, without a key.
    scope.options(
      '/v1/*',
      {
        onRequest: (request, reply, done) => {
          reply.hijack();
          this.tracker.begin(request.raw, reply.raw, request.routeOptions.url ?? '');
          closeUnlessDrainable(request.raw, reply.raw);
          reply.raw.writeHead(204, CORS_HEADERS);
          reply.raw.end();
          done();
        },
      },
      () => undefined, // never reached: the hook answered
    );
  }

  private onRelay(
    request: RawBodyRequest,
    reply: FastifyReply,
    endpoint: RelayEndpoint,
    route: string,
    modelFromPath?: string,
  ): void {
    this.relayFor(request, reply, { endpoint, route, modelFromPath });
  }

  /** Anthropic's Messages API: `x-api-key` (or Bearer), answers and errors in its shapes. */
  private onMessages(request: RawBodyRequest, reply: FastifyReply): void {
    const header = (name: string): string | undefined => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    this.relayFor(request, reply, {
      endpoint: 'chat',
      route: '/v1/messages',
      ingress: 'anthropic',
      clientHeaders: {
        'anthropic-version': header('anthropic-version'),
        'anthropic-beta': header('anthropic-beta'),
      },
    });
  }

  /**
   * Gemini's native API: `POST /v1beta/models/{model}:generateContent` or
   * `:streamGenerateContent` (SSE with `alt=sse`), the key in x-goog-api-key or `?key=`.
   */
  private onGemini(request: WildcardRequest, reply: FastifyReply): void {
    const [model = '', action = ''] = (request.params['*'] ?? '').split(':', 2);
    if (model === '' || (action !== 'generateContent' && action !== 'streamGenerateContent')) {
      reply.hijack();
      const error = new RelayError(
        404,
        `models/${model}:${action} is not supported`,
        'invalid_request_error',
        'not_found',
      );
      return sendError(
        reply.raw,
        error,
        this.tracker.ownIdOf(request.raw),
        clientWireOfIngress('gemini'),
      );
    }
    this.relayFor(request, reply, {
      endpoint: 'chat',
      route: `/v1beta/models/{model}:${action}`,
      ingress: 'gemini',
      modelFromPath: decodeURIComponent(model),
      streamFromPath: action === 'streamGenerateContent',
    });
  }

  /** Anthropic's token counting: the relay's own estimate of the prompt, not billed. */
  private onCountTokens(request: RawBodyRequest, reply: FastifyReply): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    if (!this.tokenCaller(request, reply, requestId, 'anthropic')) return;
    const body = Buffer.isBuffer(request.body) ? parseJsonObject(request.body) : undefined;
    const hub = body
      ? ingressCodec('anthropic').toOpenAi({ max_tokens: 1, ...body }, {})
      : 'invalid JSON body';
    if (typeof hub === 'string') {
      const error = new RelayError(400, hub, 'invalid_request_error', 'invalid_request');
      return sendError(reply.raw, error, requestId, clientWireOfIngress('anthropic'));
    }
    sendJson(reply.raw, 200, { input_tokens: estimatePromptTokens('chat', hub) }, requestId);
  }

  private relayFor(
    request: RawBodyRequest,
    reply: FastifyReply,
    how: Pick<
      RelayCall,
      'endpoint' | 'route' | 'modelFromPath' | 'ingress' | 'streamFromPath' | 'clientHeaders'
    >,
  ): void {
    reply.hijack();
    const startedAt = Date.now();
    const record = this.tracker.begin(request.raw, reply.raw, how.route);
    const trace = (record.relay = newRelayTrace(0));
    const lang = langOf(request);
    const caller = callerOf(request);
    record.userId = caller.user.id;
    trace.tokenId = caller.token?.id ?? 0;
    const call = this.relay.relay(
      {
        ...how,
        raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        contentType: request.headers['content-type'] ?? 'application/json',
        ip: request.ip,
        lang,
        requestId: record.ownId,
        correlationId: record.requestId,
        trace,
        startedAt,
        caller,
      },
      reply.raw,
    );
    this.pending.track(call);
  }

  /** Token admission before the body, the key where `ingressOf`'s clients put it. */
  private tokenGate(
    route: GatedRoute,
    ingressOf: (request: FastifyRequest) => IngressKind | undefined,
  ): onRequestHookHandler {
    return this.gate.before(
      route,
      (request) =>
        this.admission.admitToken(
          clientKey(ingressOf(request), request.headers, queryOf(request)),
          request.ip,
          langOf(request),
          Date.now(),
        ),
      (request) => clientWireOfIngress(ingressOf(request)),
    );
  }

  /** The playground's caller: the signed-in user (session + New-Api-User), no token. */
  private async admitPlayground(request: FastifyRequest): Promise<Admission> {
    const lang = langOf(request);
    let userId: number;
    try {
      const header = request.headers[USER_ID_HEADER.toLowerCase()];
      const user = await this.authenticator().authenticate({
        // No cookie plugin runs on the relay's instance (relay-front.ts): only this route needs one.
        sessionCookie: sessionCookieOf(request.headers.cookie),
        authorization: request.headers.authorization,
        userHeader: Array.isArray(header) ? header[0] : header,
      });
      userId = user.id;
    } catch (error) {
      const code = error instanceof ApiError ? error.code : 'relay.not_logged_in';
      const status = error instanceof ApiError && error.status !== 200 ? error.status : 401;
      return {
        ok: false,
        error: new RelayError(
          status,
          translate(code, {}, lang),
          'authentication_error',
          'unauthorized',
        ),
      };
    }
    return this.admission.admitUser(userId, lang);
  }

  /** The console's playground: billed to the user the gate admitted, no token. */
  private async onPlayground(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    const startedAt = Date.now();
    const record = this.tracker.begin(request.raw, reply.raw, '/pg/chat/completions');
    const trace = (record.relay = newRelayTrace(0));
    const requestId = record.ownId;
    const lang = langOf(request);
    const caller = callerOf(request);
    record.userId = caller.user.id;
    const call = this.relay.relay(
      {
        endpoint: 'chat',
        route: '/pg/chat/completions',
        raw: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
        contentType: request.headers['content-type'] ?? 'application/json',
        ip: request.ip,
        lang,
        requestId,
        correlationId: record.requestId,
        trace,
        startedAt,
        caller,
        playground: true,
      },
      reply.raw,
    );
    this.pending.track(call);
    await call;
  }

  private tokenCaller(
    request: FastifyRequest,
    reply: FastifyReply,
    requestId: string,
    ingress?: IngressKind,
  ): { user: RelayUser; token: RelayToken; lang: Lang } | undefined {
    reply.hijack();
    const lang = langOf(request);
    const { user, token } = callerOf(request);
    const record = requestRecordOf(request.raw);
    if (record) record.userId = user.id;
    if (token) return { user, token, lang };
    sendError(
      reply.raw,
      relayError({
        lang,
        status: 401,
        key: 'relay.token_missing',
        type: 'authentication_error',
        code: 'token_missing',
      }),
      requestId,
      clientWireOfIngress(ingress),
    );
    return undefined;
  }

  /** The models this token may use: its group's routable models, within its model limits. */
  private onModels(
    request: FastifyRequest,
    reply: FastifyReply,
    one?: string,
    format = listFormatOf(request.headers, queryOf(request)),
  ): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    const caller = this.tokenCaller(request, reply, requestId, format);
    if (!caller) return;
    const { token, lang } = caller;
    const settings = this.settings.current();
    const group = groupFor(caller, token.group, settings);
    let models = [...this.routing.models(group)];
    if (token.modelLimitsEnabled) models = models.filter((m) => token.modelLimits.includes(m));
    if (one === undefined) {
      return sendJson(reply.raw, 200, modelList(models, format ?? 'openai'), requestId);
    }
    if (!models.includes(one)) {
      const error = relayError({
        lang,
        status: 404,
        key: 'relay.model_not_found',
        params: { model: one },
        type: 'invalid_request_error',
        code: 'model_not_found',
      });
      return sendError(reply.raw, error, requestId, clientWireOfIngress(format));
    }
    sendJson(reply.raw, 200, modelEntry(one, format ?? 'openai'), requestId);
  }

  /** OpenAI's old dashboard billing endpoints, as the anchors answer them (for client apps). */
  private onBilling(
    request: FastifyRequest,
    reply: FastifyReply,
    kind: 'subscription' | 'usage',
  ): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    const caller = this.tokenCaller(request, reply, requestId);
    if (!caller) return;
    const { user, token } = caller;
    const s = this.settings.current();
    const byToken = s.displayTokenStat && !token.unlimitedQuota;
    const used = (byToken ? this.book.tokenUsed?.(token.id) : undefined) ?? 0;
    const remain = byToken
      ? (this.book.tokenRemaining(token.id) ?? 0)
      : (this.book.userBalance(user.id) ?? 0);
    const unit = s.displayInCurrency ? s.price.quotaPerUnit : 1;
    if (kind === 'usage') {
      return sendJson(
        reply.raw,
        200,
        { object: 'list', total_usage: (used / unit) * 100 },
        requestId,
      );
    }
    const amount = token.unlimitedQuota ? 100000000 : (remain + used) / unit;
    sendJson(
      reply.raw,
      200,
      {
        object: 'billing_subscription',
        has_payment_method: true,
        soft_limit_usd: amount,
        hard_limit_usd: amount,
        system_hard_limit_usd: amount,
        access_until: token.expiredTime > 0 ? token.expiredTime : 0,
      },
      requestId,
    );
  }

  private onNotImplemented(request: FastifyRequest, reply: FastifyReply): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    if (!this.tokenCaller(request, reply, requestId)) return;
    sendError(reply.raw, notImplemented(), requestId);
  }
}

function sessionCookieOf(header: string | undefined): string | undefined {
  return header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
}

function langOf(request: FastifyRequest): Lang {
  const header: unknown = request.headers['accept-language'];
  return pickLang(typeof header === 'string' ? header : undefined);
}

function queryOf(request: FastifyRequest): Record<string, unknown> {
  return (request.query ?? {}) as Record<string, unknown>;
}
