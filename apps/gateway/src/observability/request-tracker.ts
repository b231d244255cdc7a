import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { FastifyInstance } from 'fastify';
import { newRequestId, requestIdFrom } from './request-id';
import type { RequestObserver, RequestRecord, UpstreamObserver } from './request-record';

const RECORD = Symbol('tollgate.requestRecord');
/** The route label of a request no route matched (never the raw path: labels stay few). */
export const UNMATCHED_ROUTE = 'unmatched';

type Tracked = IncomingMessage & { [RECORD]?: RequestRecord };
type TrackedResponse = ServerResponse & { [RECORD]?: RequestRecord };

/** The record a tracker opened for this request (undefined for one no tracker saw). */
export function requestRecordOf(req: IncomingMessage): RequestRecord | undefined {
  return (req as Tracked)[RECORD];
}

/**
 * Opens a record for every HTTP request (request id, route template, start time), answers the
 * request id in X-Request-Id, and hands the record to the observers when the response closes.
 *
 * The relay's front is instrumented by wrapping each route's handler when it is registered (no
 * Fastify hook runs per request there); the console's instance, which already has hooks, uses
 * onRequest so that unmatched paths (its 404) are counted too.
 */
export class RequestTracker {
  private readonly observers: RequestObserver[] = [];
  private readonly upstreamObservers: UpstreamObserver[] = [];
  private open = 0;
  /** One listener for every response ('close' calls it with the response as `this`). */
  private readonly onClose: (this: ServerResponse) => void;

  constructor() {
    const observers = this.observers;
    const closed = (): void => {
      this.open -= 1;
    };
    this.onClose = function (this: ServerResponse): void {
      const record = (this as TrackedResponse)[RECORD];
      if (!record) return;
      closed();
      record.durationMs = performance.now() - record.startedAt;
      // A client that left before any answer: nginx's 499, so it is not counted as a 200.
      record.status = this.headersSent ? this.statusCode : 499;
      for (const observer of observers) {
        try {
          observer.requestDone(record);
        } catch {
          // An observer's bug must not break the response path; observers log their own errors.
        }
      }
    };
  }

  /** Requests being answered right now (new-api's `active_connections`). */
  get inFlight(): number {
    return this.open;
  }

  observe(observer: RequestObserver): void {
    this.observers.push(observer);
  }

  observeUpstream(observer: UpstreamObserver): void {
    this.upstreamObservers.push(observer);
  }

  /** The relay reports each upstream attempt's duration here. */
  upstreamDone(channelId: number, seconds: number): void {
    for (const observer of this.upstreamObservers) observer.upstreamDone(channelId, seconds);
  }

  /** The gateway's own id for this request (a fresh one for a request no tracker saw). */
  ownIdOf(req: IncomingMessage): string {
    return (req as Tracked)[RECORD]?.ownId ?? newRequestId();
  }

  /** Wraps every route the relay's instance registers from now on. */
  instrumentRoutes(fastify: FastifyInstance): void {
    const begin = (req: IncomingMessage, res: ServerResponse, route: string) =>
      this.begin(req, res, route);
    fastify.addHook('onRoute', (route) => {
      const handler = route.handler;
      const template = route.url;
      route.handler = function tracked(this: FastifyInstance, request, reply) {
        begin(request.raw, reply.raw, template);
        return handler.call(this, request, reply);
      };
    });
  }

  /** Opens records in onRequest (the console's instance: matched routes and its 404s). */
  instrumentRequests(fastify: FastifyInstance): void {
    fastify.addHook('onRequest', (request, reply, done) => {
      this.begin(request.raw, reply.raw, request.routeOptions.url ?? UNMATCHED_ROUTE);
      done();
    });
  }

  /** Opens the request's record, or returns the one already open (begin is idempotent). */
  begin(req: IncomingMessage, res: ServerResponse, route: string): RequestRecord {
    const open = (req as Tracked)[RECORD];
    if (open) return open; // the relay front handed an unmatched request over to the console
    const inbound = req.headers['x-request-id'];
    const requestId = requestIdFrom(inbound);
    const record: RequestRecord = {
      method: req.method ?? 'GET',
      route,
      requestId,
      ownId: requestId === inbound ? newRequestId() : requestId,
      startedAt: performance.now(),
      status: 0,
      durationMs: 0,
      userId: 0,
      relay: undefined,
    };
    (req as Tracked)[RECORD] = record;
    (res as TrackedResponse)[RECORD] = record;
    res.setHeader('x-request-id', record.requestId);
    this.open += 1;
    res.once('close', this.onClose);
    return record;
  }
}
