import { withFields } from '@tollgate/domain';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RelayError } from '@tollgate/relay';
import { newRequestId } from '../observability/request-id';
import type { RequestTracker } from '../observability/request-tracker';
import { type Lang, pickRelayLang } from '../shared/i18n/messages';
import type { ClientWire } from './client-wire';
import type { Admission, Caller } from './relay-admission';
import { answerBodyFault, readBody } from './relay-body';

/** What a fast-lane handler gets: the raw pair, the whole body, the admitted caller. */
export interface LaneRequest {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: Buffer;
  readonly ip: string;
  readonly lang: Lang;
  readonly caller: Caller;
}

export interface LaneRoute {
  readonly bodyLimit: number;
  /** Whose protocol the refusals speak. */
  readonly wire: ClientWire;
  /** Admission from the headers alone, before a byte of the body is read. */
  admit(req: IncomingMessage, ip: string, lang: Lang): Admission;
  refuse(req: IncomingMessage, res: ServerResponse, error: RelayError): void;
  handle(request: LaneRequest): void;
}

/** A handler that threw (none should): a 500 in the route's protocol, nothing of the cause. */
const HANDLER_FAULT = { statusCode: 500, code: 'internal_error', message: 'internal error' };

/**
 * The media types a fast-lane request may declare: what the OpenAI and Anthropic SDKs and curl's
 * `-H` send. Any other (parameters, odd case, a type Fastify would judge invalid) takes the
 * Fastify route, so the two paths never answer the same request differently.
 */
const LANE_CONTENT_TYPES = new Set(['application/json', 'application/json; charset=utf-8']);

/**
 * The relay's busiest routes served straight from `node:http`, without a framework lifecycle:
 * Fastify's request and reply objects, its hook runner and its body parser cost ~70 µs of CPU per
 * request on the relay's core (measured against the same handler on a bare server).
 *
 * Only requests whose answer cannot differ from the Fastify route's take the lane: `POST` to the
 * route's exact path (no query, no trailing slash), a JSON content type from LANE_CONTENT_TYPES, and
 * not while the relay's instance is closing (Fastify then answers 503). Everything else, including
 * every other spelling of the same path, goes to the relay's Fastify instance as before.
 */
export class RelayFastLane {
  private readonly routes = new Map<string, LaneRoute>();
  private closing = false;

  constructor(
    private readonly ipOf: (req: IncomingMessage) => string,
    private readonly tracker?: RequestTracker,
  ) {}

  add(path: string, route: LaneRoute): void {
    this.routes.set(path, route);
  }

  /** From now on every request goes to Fastify (which refuses new ones while it closes). */
  close(): void {
    this.closing = true;
  }

  /** Serves the request and returns true when it is the lane's; false leaves it untouched. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'POST' || this.closing) return false;
    const route = this.routes.get(req.url ?? '');
    if (route === undefined) return false;
    const type = req.headers['content-type'];
    if (type === undefined || !LANE_CONTENT_TYPES.has(type)) return false;
    this.admitThenRead(route, req, res);
    return true;
  }

  private admitThenRead(route: LaneRoute, req: IncomingMessage, res: ServerResponse): void {
    const ip = this.ipOf(req);
    const lang = pickRelayLang(req.headers['accept-language']);
    const admitted = route.admit(req, ip, lang);
    if (!admitted.ok) return route.refuse(req, res, admitted.error);
    const caller = admitted.caller;
    readBody(req, route.bodyLimit, (fault, body) => {
      const how = { limit: route.bodyLimit, lang, wire: route.wire };
      if (fault !== null)
        return answerBodyFault(req, res, fault, withFields(how, { requestId: this.idOf(req) }));
      try {
        route.handle({ req, res, body, ip, lang, caller });
      } catch {
        // Thrown from a stream's 'end' listener it would end the process: answered instead.
        answerBodyFault(req, res, HANDLER_FAULT, withFields(how, { requestId: this.idOf(req) }));
      }
    });
  }

  private idOf(req: IncomingMessage): string {
    return this.tracker?.ownIdOf(req) ?? newRequestId();
  }
}
