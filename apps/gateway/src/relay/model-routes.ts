/**
 * The model lists: GET /v1/models (and /v1/models/:model) in the protocol the client's headers
 * speak, Gemini's GET /v1beta/models (and /v1beta/models/{model}).
 */
import type { IngressKind } from '@tollgate/relay';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RequestTracker } from '../observability/request-tracker';
import { listFormatOf } from './client-key';
import { clientWireOfIngress } from './client-wire';
import { modelEntry, modelList } from './model-lists';
import { relayError, sendError, sendJson } from './relay-http';
import type { RoutingTablePort } from './relay-ports';
import { queryOf, tokenCaller } from './relay-requests';
import { groupFor } from './relay-routing';
import type { RelaySettingsView } from './relay-settings';

type ModelParams = { Params: { model?: string; '*'?: string } };

/** The token gates the lists are behind: the client's own protocol, and Gemini's. */
export interface ModelGates {
  readonly listing: onRequestHookHandler;
  readonly geminiRead: onRequestHookHandler;
}

export class ModelRoutes {
  constructor(
    private readonly settings: RelaySettingsView,
    private readonly routing: RoutingTablePort,
    private readonly tracker: RequestTracker,
  ) {}

  register(scope: FastifyInstance, gates: ModelGates): void {
    const { listing, geminiRead } = gates;
    scope.get('/v1beta/models', { onRequest: geminiRead }, (request, reply) =>
      this.onModels(request, reply, undefined, 'gemini'),
    );
    scope.get<ModelParams>('/v1beta/models/*', { onRequest: geminiRead }, (request, reply) =>
      this.onModels(request, reply, (request.params['*'] ?? '').replace(/^models\//, ''), 'gemini'),
    );
    scope.get('/v1/models', { onRequest: listing }, (request, reply) =>
      this.onModels(request, reply),
    );
    scope.get<ModelParams>('/v1/models/:model', { onRequest: listing }, (request, reply) =>
      this.onModels(request, reply, request.params.model ?? ''),
    );
  }

  /** The models this token may use: its group's routable models, within its model limits. */
  private onModels(
    request: FastifyRequest,
    reply: FastifyReply,
    one?: string,
    format: IngressKind | undefined = listFormatOf(request.headers, queryOf(request)),
  ): void {
    const requestId = this.tracker.ownIdOf(request.raw);
    const caller = tokenCaller(request, reply, requestId, format);
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
}
