import type { IncomingMessage, ServerResponse } from 'node:http';
import { Inject, Injectable } from '@nestjs/common';
import type { RelayError } from '@tollgate/relay';
import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestAsyncHookHandler,
  onRequestHookHandler,
} from 'fastify';
import { REQUEST_TRACKER } from '../observability/observability.tokens';
import { newRelayTrace } from '../observability/request-record';
import type { RequestTracker } from '../observability/request-tracker';
import type { ClientWire } from './client-wire';
import type { Admission, Caller } from './relay-admission';
import { sendError } from './relay-http';

/**
 * A refused request whose declared body is at most this is drained (Node reads it to its end) so
 * that its keep-alive connection serves the next request; a larger body, or one of unannounced
 * length (chunked), is not read: the answer closes the connection instead. Beyond what arrived
 * with its headers (Node's one socket read, up to 64 KiB), a wrong key costs the gateway at most
 * this much of its body, whatever the client sends.
 */
export const REFUSED_BODY_DRAIN_BYTES = 8 * 1024;

const CALLER = Symbol('tollgate.relayCaller');
type GatedRequest = FastifyRequest & { [CALLER]?: Caller };

/**
 * What the route serves: a relay call (its refusals are counted and logged as relay calls, with
 * no model, as when its handler refused them), or a read (model lists, billing, 501s).
 */
export type GatedRoute = 'call' | 'read';

/**
 * Before answering a request whose body was not read to its end: close the connection unless what
 * is left is small. Otherwise Node drains the rest after the answer (to keep the connection alive),
 * and a client could stream its 32 MB into a request that was refused at its headers.
 */
export function closeUnlessDrainable(req: IncomingMessage, res: ServerResponse): void {
  if (req.complete) return;
  const announced = req.headers['transfer-encoding'] === undefined;
  // A missing Content-Length without Transfer-Encoding is a request without a body.
  const length = Number(req.headers['content-length'] ?? 0);
  if (announced && length <= REFUSED_BODY_DRAIN_BYTES) return;
  res.setHeader('connection', 'close');
  res.once('finish', () => req.socket.destroy());
}

/** The caller the route's gate admitted (a gated route's handler only). */
export function callerOf(request: FastifyRequest): Caller {
  const caller = (request as GatedRequest)[CALLER];
  if (!caller) throw new Error(`${request.routeOptions.url ?? request.url}: no gate admitted it`);
  return caller;
}

/**
 * Admission at the door: a relay route's `onRequest` hook decides who calls from the request's
 * headers alone, before Fastify reads a byte of the body. A refusal is answered there in the
 * client's protocol and the upload is cut (closeUnlessDrainable); an admitted caller is kept on
 * the request for the handler (callerOf), so admission runs once per request as before.
 */
@Injectable()
export class RelayGate {
  constructor(@Inject(REQUEST_TRACKER) private readonly tracker: RequestTracker) {}

  /** A hook around a synchronous admission (tokens: a look-up in memory). */
  before(
    route: GatedRoute,
    admit: (request: FastifyRequest) => Admission,
    wireOf: (request: FastifyRequest) => ClientWire,
  ): onRequestHookHandler {
    return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      const admitted = admit(request);
      if (admitted.ok) (request as GatedRequest)[CALLER] = admitted.caller;
      else this.refuse(route, request, reply, admitted.error, wireOf(request));
      done();
    };
  }

  /** The same around an admission that reads the stores (the playground's session). */
  beforeAsync(
    route: GatedRoute,
    admit: (request: FastifyRequest) => Promise<Admission>,
    wireOf: (request: FastifyRequest) => ClientWire,
  ): onRequestAsyncHookHandler {
    return async (request: FastifyRequest, reply: FastifyReply) => {
      const admitted = await admit(request);
      if (admitted.ok) (request as GatedRequest)[CALLER] = admitted.caller;
      else this.refuse(route, request, reply, admitted.error, wireOf(request));
    };
  }

  private refuse(
    route: GatedRoute,
    request: FastifyRequest,
    reply: FastifyReply,
    error: RelayError,
    wire: ClientWire,
  ): void {
    // Hijacked: Fastify neither parses the body nor runs the handler.
    reply.hijack();
    this.refuseRaw(route, request.raw, reply.raw, request.routeOptions.url ?? '', error, wire);
  }

  /**
   * The refusal on the raw request (the fast lane's, and the hooks' above): traced as the route,
   * counted as a relay call when it is one, answered in `wire`'s protocol, the upload cut.
   */
  refuseRaw(
    route: GatedRoute,
    req: IncomingMessage,
    res: ServerResponse,
    url: string,
    error: RelayError,
    wire: ClientWire,
  ): void {
    const record = this.tracker.begin(req, res, url);
    if (route === 'call') record.relay = newRelayTrace(0);
    closeUnlessDrainable(req, res);
    sendError(res, error, record.ownId, wire);
  }
}
