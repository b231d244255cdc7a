import { withFields } from '@tollgate/domain';
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
  RelayError,
  type RelayEndpoint,
} from '@tollgate/relay';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { Authenticator } from '../auth/authenticator';
import { SESSION_COOKIE } from '../auth/session-codec';
import { ApiError } from '../shared/api-error';
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
import { BillingDashboardRoutes } from './billing-dashboard-routes';
import { ModelRoutes } from './model-routes';
import { langOf, queryOf, tokenCaller } from './relay-requests';
import { pathOfUrl, wireOfRelayPath } from './relay-paths';
import {
  BALANCE_BOOK_PORT,
  type BalanceBookPort,
  ROUTING_TABLE_PORT,
  type RoutingTablePort,
} from './relay-ports';
import { RelaySettingsView } from './relay-settings';
import { RelayService } from './relay.service';
import { listFormatOf } from './client-key';
import { clientWireOfIngress, OPENAI_CLIENT } from './client-wire';
import { RelayRouteExtensions } from './relay-route-extensions';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import { newRelayTrace } from '../observability/request-record';
import type { RequestTracker } from '../observability/request-tracker';
import { PendingWrites } from '../infrastructure/pending-writes';
import { answerBodyFault, faultOf } from './relay-body';
import { type CallHow, EXACT_CALLS, PLAYGROUND_CALL } from './relay-route-calls';
import type { LaneRequest, RelayFastLane } from './relay-fast-lane';

export { RELAY_AUDIO_BODY_LIMIT, RELAY_JSON_BODY_LIMIT } from './relay-http';

/** Resolves the app's Authenticator (the playground signs in with the console session). */
export const PLAYGROUND_AUTHENTICATOR = Symbol('PLAYGROUND_AUTHENTICATOR');

type RelayParams = { Params: { model?: string; '*'?: string } };
type RawBodyRequest = FastifyRequest<RelayParams>;
type WildcardRequest = RawBodyRequest;

const EMPTY_BODY = Buffer.alloc(0);
/** The lane takes no request with a query string. */
const NO_QUERY: Readonly<Record<string, unknown>> = {};

/**
 * The relay's HTTP surface, registered as plain Fastify routes in their own encapsulated scope:
 * bodies arrive as raw Buffers (no JSON parse by the framework, no Nest pipes or guards), with
 * their own body limits, and the handlers write to the raw response.
 */
@Injectable()
export class RelayRoutes {
  private readonly models: ModelRoutes;
  private readonly dashboard: BillingDashboardRoutes;

  constructor(
    private readonly relay: RelayService,
    private readonly admission: RelayAdmission,
    private readonly gate: RelayGate,
    settings: RelaySettingsView,
    @Inject(PLAYGROUND_AUTHENTICATOR) private readonly authenticator: () => Authenticator,
    @Inject(ROUTING_TABLE_PORT) routing: RoutingTablePort,
    @Inject(BALANCE_BOOK_PORT) book: BalanceBookPort,
    private readonly extensions: RelayRouteExtensions,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    // A shutdown waits for the calls under way: they settle (and bill) after their client is gone.
    private readonly pending: PendingWrites,
  ) {
    this.models = new ModelRoutes(settings, routing, tracker);
    this.dashboard = new BillingDashboardRoutes(settings, book, tracker);
  }

  register(fastify: FastifyInstance, lane?: RelayFastLane): void {
    void fastify.register((scope, _opts, done) => {
      this.setup(scope);
      done();
    });
    if (lane) this.registerLane(lane);
  }

  /**
   * The exact-path calls on the fast lane too (relay-fast-lane.ts), with the same admission,
   * limits and handler as their Fastify routes.
   */
  private registerLane(lane: RelayFastLane): void {
    for (const call of EXACT_CALLS) {
      const wire = clientWireOfIngress(call.ingress);
      lane.add(call.path, {
        bodyLimit: call.bodyLimit,
        wire,
        admit: (req, ip, lang) =>
          this.admission.admitClient(call.ingress, req.headers, NO_QUERY, ip, lang),
        refuse: (req, res, error) => this.gate.refuseRaw('call', req, res, call.path, error, wire),
        handle: (request) => this.relayCall(request, call.how(request.req.headers)),
      });
    }
  }

  private setup(scope: FastifyInstance): void {
    this.takeRawBodies(scope);
    const openAi = this.tokenGate('call', () => undefined);
    const openAiRead = this.tokenGate('read', () => undefined);
    // GET /v1/models answers (and refuses) in the protocol the client's headers speak.
    const listing = this.tokenGate('read', (request) =>
      listFormatOf(request.headers, queryOf(request)),
    );
    const geminiRead = this.tokenGate('read', () => 'gemini');
    this.registerCalls(scope, openAi);
    this.models.register(scope, { listing, geminiRead });
    this.dashboard.register(scope, openAiRead);
    for (const route of NOT_IMPLEMENTED_ROUTES) {
      scope.route({
        method: route.method,
        url: route.url,
        onRequest: openAiRead,
        handler: (request, reply) => this.onNotImplemented(request, reply),
      });
    }
    // Other modules' routes (Midjourney and Suno: /mj, /mj-fast/mj, …, /suno): the same front,
    // parsers and gate.
    this.extensions.register(scope);
    this.answerPreflight(scope);
  }

  /**
   * Bodies arrive as raw Buffers. The body parser's refusals (over the limit, a length that does
   * not match) are answered in the route's protocol, and the rest of an upload Fastify stopped
   * reading is not drained.
   */
  private takeRawBodies(scope: FastifyInstance): void {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: RELAY_AUDIO_BODY_LIMIT },
      (_request, body, parsed) => parsed(null, body),
    );
    scope.setErrorHandler(
      (error: Error & { statusCode?: number; code?: string }, request, reply) => {
        reply.hijack();
        answerBodyFault(request.raw, reply.raw, faultOf(error), {
          limit: request.routeOptions.bodyLimit ?? RELAY_JSON_BODY_LIMIT,
          lang: langOf(request),
          requestId: this.tracker.ownIdOf(request.raw),
          wire: wireOfRelayPath(pathOfUrl(request.url)) ?? OPENAI_CLIENT,
        });
      },
    );
  }

  /** The relay calls: OpenAI's endpoints, Anthropic's Messages, Gemini's, the playground's. */
  private registerCalls(scope: FastifyInstance, openAi: onRequestHookHandler): void {
    const anthropicRead = this.tokenGate('read', () => 'anthropic');
    const gemini = this.tokenGate('call', () => 'gemini');
    for (const call of EXACT_CALLS) {
      scope.post<RelayParams>(
        call.path,
        { bodyLimit: call.bodyLimit, onRequest: this.tokenGate('call', () => call.ingress) },
        (request: RawBodyRequest, reply) =>
          this.relayFor(request, reply, call.how(request.headers)),
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
      '/v1/messages/count_tokens',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: anthropicRead },
      (request: RawBodyRequest, reply) => this.onCountTokens(request, reply),
    );
    scope.post(
      '/v1beta/models/*',
      { bodyLimit: RELAY_JSON_BODY_LIMIT, onRequest: gemini },
      (request, reply) => this.onGemini(request as WildcardRequest, reply),
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
      (request, reply) => this.relayFor(request as RawBodyRequest, reply, PLAYGROUND_CALL),
    );
  }

  /**
   * The preflight is answered at its headers: Fastify would otherwise read whatever body an
   * OPTIONS request announces (up to the parser's 40 MB) before the handler, without a key.
   */
  private answerPreflight(scope: FastifyInstance): void {
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

  /**
   * Gemini's native API: `POST /v1beta/models/{model}:generateContent` or
   * `:streamGenerateContent` (SSE with `alt=sse`, else one JSON array), the key in x-goog-api-key
   * or `?key=`.
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
    const stream = action === 'streamGenerateContent';
    this.relayFor(request, reply, {
      endpoint: 'chat',
      route: `/v1beta/models/{model}:${action}`,
      ingress: 'gemini',
      modelFromPath: decodeURIComponent(model),
      streamFromPath: stream,
      arrayStream: stream && queryOf(request)['alt'] !== 'sse',
    });
  }

  /** Anthropic's token counting: the relay's own estimate of the prompt, not billed. */
  private onCountTokens(request: RawBodyRequest, reply: FastifyReply): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    if (!tokenCaller(request, reply, requestId, 'anthropic')) return;
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

  /** A relay call from the Fastify route: hijacked, then as from the fast lane. */
  private relayFor(request: RawBodyRequest, reply: FastifyReply, how: CallHow): void {
    reply.hijack();
    this.relayCall(
      {
        req: request.raw,
        res: reply.raw,
        body: Buffer.isBuffer(request.body) ? request.body : EMPTY_BODY,
        ip: request.ip,
        lang: langOf(request),
        caller: callerOf(request),
      },
      how,
    );
  }

  private relayCall(request: LaneRequest, how: CallHow): void {
    const { req, res, caller } = request;
    const startedAt = Date.now();
    const record = this.tracker.begin(req, res, how.route);
    const trace = (record.relay = newRelayTrace(0));
    record.userId = caller.user.id;
    trace.tokenId = caller.token?.id ?? 0;
    const call = this.relay.relay(
      withFields(how, {
        raw: request.body,
        contentType: req.headers['content-type'] ?? 'application/json',
        ip: request.ip,
        lang: request.lang,
        requestId: record.ownId,
        correlationId: record.requestId,
        trace,
        startedAt,
        caller,
      }),
      res,
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
        this.admission.admitClient(
          ingressOf(request),
          request.headers,
          queryOf(request),
          request.ip,
          langOf(request),
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
        error: relayError({
          lang,
          status,
          key: code,
          type: 'authentication_error',
          code: 'unauthorized',
        }),
      };
    }
    return this.admission.admitUser(userId, lang);
  }

  private onNotImplemented(request: FastifyRequest, reply: FastifyReply): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    if (!tokenCaller(request, reply, requestId)) return;
    sendError(reply.raw, notImplemented(), requestId);
  }
}

function sessionCookieOf(header: string | undefined): string | undefined {
  return header ? fastifyCookie.parse(header)[SESSION_COOKIE] : undefined;
}
