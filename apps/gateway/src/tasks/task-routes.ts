import { Inject, Injectable } from '@nestjs/common';
import { MJ_SUBMIT_ACTIONS, parseJsonObject } from '@tollgate/relay';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  JSON_CONTENT_TYPE,
  keyOfAuthorization,
  RELAY_JSON_BODY_LIMIT,
  sendBytes,
  TASK_RELAY_PORT,
  type TaskRelayPort,
} from '../relay/task-relay-port';
import { PendingWrites } from '../infrastructure/pending-writes';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import { newRelayTrace } from '../observability/request-record';
import type { RequestTracker } from '../observability/request-tracker';
import { type Lang, pickRelayLang } from '../shared/i18n/messages';
import { MjImageProxy } from './mj-image';
import { MjRelay } from './mj-relay';
import { SunoRelay } from './suno-relay';
import type { TaskRequest } from './task-request';

/** new-api's mode prefixes: cut before the call goes upstream, not used for price or routing. */
const MJ_PREFIXES = ['', '/mj-fast', '/mj-relax', '/mj-turbo'];

type Request = FastifyRequest<{ Params: { action?: string; id?: string } }>;

/**
 * The task relays' routes on the relay's Fastify front (raw bodies, no Nest on the path), added
 * through the relay port: the key from `Authorization: Bearer sk-…` or `mj-api-secret`, token
 * admission before the body as every relay call.
 */
@Injectable()
export class TaskRoutes {
  constructor(
    @Inject(TASK_RELAY_PORT) private readonly relay: TaskRelayPort,
    private readonly mj: MjRelay,
    private readonly suno: SunoRelay,
    private readonly images: MjImageProxy,
    @Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker,
    private readonly pending: PendingWrites,
  ) {}

  register(scope: FastifyInstance): void {
    const limit = { bodyLimit: RELAY_JSON_BODY_LIMIT };
    // The key before the body: the routes whose handler is `admitted` get this onRequest hook.
    const gated = { onRequest: this.relay.keyGate(taskKey) };
    const gatedBody = { ...limit, ...gated };
    for (const prefix of MJ_PREFIXES) {
      const mj = `${prefix}/mj`;
      for (const [tail, action] of Object.entries(MJ_SUBMIT_ACTIONS)) {
        scope.post(
          `${mj}/submit/${tail}`,
          gatedBody,
          this.admitted((r, reply) => this.mj.submit(action, r, reply.raw)),
        );
      }
      scope.post(
        `${mj}/insight-face/swap`,
        gatedBody,
        this.admitted((r, reply) => this.mj.submit('SWAP_FACE', r, reply.raw)),
      );
      scope.post(
        `${mj}/notify`,
        gatedBody,
        this.admitted((r, reply) => this.mj.notify(r, reply.raw)),
      );
      scope.get(
        `${mj}/task/:id/fetch`,
        gated,
        this.admitted((r, reply, id) => this.mj.fetch(id, r, reply.raw)),
      );
      scope.get(
        `${mj}/task/:id/image-seed`,
        gated,
        this.admitted((r, reply, id) => this.mj.imageSeed(id, r, reply.raw)),
      );
      scope.post(
        `${mj}/task/list-by-condition`,
        gatedBody,
        this.admitted((r, reply) => this.mj.listByCondition(r, reply.raw)),
      );
      scope.get(`${mj}/image/:id`, (request: Request, reply) => {
        reply.hijack();
        return this.images.serve(
          request.params.id ?? '',
          reply.raw,
          this.tracker.ownIdOf(request.raw),
          langOf(request),
        );
      });
    }
    scope.post(
      '/suno/submit/:action',
      gatedBody,
      this.admitted((r, reply, _id, action) => this.suno.submit(action, r, reply.raw)),
    );
    scope.post(
      '/suno/fetch',
      gatedBody,
      this.admitted((r, reply) => this.suno.fetch(r, reply.raw)),
    );
    scope.get(
      '/suno/fetch/:id',
      gated,
      this.admitted((r, reply, id) => this.suno.fetchOne(id, r, reply.raw)),
    );
  }

  /** The handler of a route its gate admitted, given the parsed body (`{}` for a GET). */
  private admitted(
    handler: (
      request: TaskRequest,
      reply: FastifyReply,
      id: string,
      action: string,
    ) => Promise<void>,
  ) {
    // Typed as any route's handler: the gate's hook in the same options fixes the route's generics.
    return async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      reply.hijack();
      const startedAt = Date.now();
      const record = this.tracker.begin(request.raw, reply.raw, request.routeOptions.url ?? '');
      const trace = (record.relay = newRelayTrace(0));
      const requestId = record.ownId;
      const lang = langOf(request);
      const caller = this.relay.callerOf(request);
      record.userId = caller.user.id;
      trace.tokenId = caller.token?.id ?? 0;
      let body: Readonly<Record<string, unknown>> = {};
      if (request.method === 'POST') {
        const parsed = Buffer.isBuffer(request.body) ? parseJsonObject(request.body) : undefined;
        if (!parsed)
          return sendBytes(
            reply.raw,
            400,
            JSON_CONTENT_TYPE,
            JSON.stringify({
              description: 'bind_request_body_failed',
              type: 'upstream_error',
              code: 4,
            }),
            requestId,
          );
        body = parsed;
      }
      const task: TaskRequest = {
        caller,
        requestId,
        correlationId: record.requestId,
        trace,
        lang,
        ip: request.ip,
        path: request.url.split('?', 1)[0] ?? request.url,
        body,
        startedAt,
      };
      const { id, action } = (request as Request).params;
      const call = handler(task, reply, id ?? '', action ?? '');
      this.pending.track(call); // a submission records its charge after the upstream answered
      await call;
    };
  }
}

/** The relay's language (lang.ts): the client's when we have it, else English. */
function langOf(request: FastifyRequest): Lang {
  return pickRelayLang(request.headers['accept-language']);
}

/** new-api: the Authorization key, or `mj-api-secret` when it is empty or `midjourney-proxy`. */
function taskKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  const key = keyOfAuthorization(authorization);
  if (key !== '' && key !== 'midjourney-proxy') return authorization;
  const secret = request.headers['mj-api-secret'];
  return Array.isArray(secret) ? secret[0] : secret;
}
