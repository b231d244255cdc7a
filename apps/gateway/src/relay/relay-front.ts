import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';

const fronts = new WeakMap<Server, FastifyInstance>();

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
 * Use `serverFactory` as the app's Fastify option; the relay module adds its routes at init.
 */
export function relayFront(options: Pick<FastifyServerOptions, 'trustProxy'>) {
  let app: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const relay = Fastify({
    trustProxy: options.trustProxy,
    routerOptions: {
      ignoreTrailingSlash: true,
      // A model or file id in the path is the relay's to judge (404 model_not_found, 501), in its
      // own error shape: find-my-way's 100 would answer 414 in Fastify's. No regex params here.
      maxParamLength: RELAY_MAX_PARAM_LENGTH,
      // Not a relay route: the app's own router (and its 404) decide, as before.
      defaultRoute: (req: IncomingMessage, res: ServerResponse) => app?.(req, res),
    },
  });
  const serverFactory = (
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    opts: FastifyServerOptions,
  ): Server => {
    app = handler;
    const server = createServer((req, res) => relay.routing(req, res));
    // What Fastify sets on a server it creates itself.
    server.keepAliveTimeout = opts.keepAliveTimeout ?? 72_000;
    server.requestTimeout = opts.requestTimeout ?? 0;
    server.setTimeout(opts.connectionTimeout ?? 0);
    fronts.set(server, relay);
    return server;
  };
  return { serverFactory, instance: relay };
}

/** The relay instance `relayFront` put in front of this server, if any. */
export function relayFrontOf(server: Server): FastifyInstance | undefined {
  return fronts.get(server);
}
