import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TrustProxy } from '../config/trust-proxy';
import { LAZY_SCHEMA_COMPILERS } from '../http-edge/schema-compilers';
import type { RequestTracker } from '../observability/request-tracker';
import { clientIpOf } from './client-ip';
import { RelayFastLane } from './relay-fast-lane';
import { answerClientError, answerFrameworkError, answerUnmatched } from './relay-edge';
import { pathOfUrl, wireOfRelayPath } from './relay-paths';

const fronts = new WeakMap<Server, { instance: FastifyInstance; lane: RelayFastLane }>();

/** Same bound as the http-edge's query values; the URL as a whole is bounded by Node's header limit. */
export const RELAY_MAX_PARAM_LENGTH = 2048;

/**
 * The relay's own Fastify instance, in front of the app's on the same HTTP server. A request the
 * relay's router matches is served there; any other goes, untouched, to the app's handler.
 *
 * Why not an encapsulated scope of the app's instance: Fastify hands every hook a parent adds to
 * all its children, whenever they were created, and find-my-way derives Nest's version constraint
 * on every lookup. A CPU profile of chat load put ~12 % of the gateway's busy time in work the
 * relay never needed: Nest's four onRequest and one onResponse hooks, the version constraint,
 * middie, @fastify/cookie. Here none of them runs on /v1, /pg or /dashboard.
 *
 * Under the relay's prefixes (relay-paths.ts) every answer is the relay's, in the protocol of the
 * path: a path no relay route matches gets 404 (405 for a wrong method), the router's refusals
 * 414/400, and Node's parser's refusals (431, 400) when the packet shows the path (relay-edge.ts).
 *
 * Before both, the relay's fast lane (relay-fast-lane.ts) serves the busiest routes' ordinary
 * requests on `node:http` alone.
 *
 * Use `serverFactory` as the app's Fastify option; the relay module adds its routes at init.
 */
export function relayFront(options: { trustProxy: TrustProxy; tracker?: RequestTracker }) {
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const { tracker } = options;
  const relay: FastifyInstance = Fastify({
    trustProxy: options.trustProxy,
    schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS },
    frameworkErrors: (error, request, reply) =>
      answerFrameworkError(error, request.raw, reply.raw, tracker),
    routerOptions: {
      ignoreTrailingSlash: true,
      // A model or file id in the path is the relay's to judge (404 model_not_found, 501), in its
      // own error shape: find-my-way's 100 would answer 414 in Fastify's. No regex params here.
      maxParamLength: RELAY_MAX_PARAM_LENGTH,
      // Not a relay route: under a relay prefix the relay's 404/405, elsewhere the app's router.
      defaultRoute: (req: IncomingMessage, res: ServerResponse) => {
        const wire = wireOfRelayPath(pathOfUrl(req.url ?? '/'));
        if (wire) answerUnmatched(relay, req, res, wire, tracker);
        else app?.(req, res);
      },
    },
  });
  const lane = new RelayFastLane(clientIpOf(options.trustProxy), tracker);
  // Fastify refuses new requests while it closes (503): so must the lane.
  relay.addHook('preClose', (done) => {
    lane.close();
    done();
  });
  const serverFactory = (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    opts: FastifyServerOptions,
  ): Server => {
    app = handler;
    const server = createServer((req, res) => {
      if (!lane.serve(req, res)) relay.routing(req, res);
    });
    // Before Fastify's own listener (added once this factory returns), which skips a socket
    // already answered and destroyed here.
    server.prependListener('clientError', answerClientError);
    // What Fastify sets on a server it creates itself.
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);
    fronts.set(server, { instance: relay, lane });
    return server;
  };
  return { serverFactory, instance: relay, lane };
}

/** The relay instance `relayFront` put in front of this server, if any. */
export function relayFrontOf(server: Server): FastifyInstance | undefined {
  return fronts.get(server)?.instance;
}

/** The fast lane in front of that instance, if any. */
export function relayLaneOf(server: Server): RelayFastLane | undefined {
  return fronts.get(server)?.lane;
}
