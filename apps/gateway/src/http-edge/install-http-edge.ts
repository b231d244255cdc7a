import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../shared/api-error';
import {
  API_LIMITS,
  FORM_BODY_ROUTES,
  isApiPath,
  limitsFor,
  pathOf,
  RAW_BODY_ROUTES,
  type RawBodyRequest,
} from './body-limits';
import { hasBadCharacter, scanJson } from './json-scan';

/** The relay's ceiling (chat bodies with images can be megabytes); /api routes get far less. */
export const RELAY_BODY_LIMIT = 16 * 1024 * 1024;

const MAX_QUERY_PARAMS = 32;
const MAX_QUERY_VALUE = 2048;

/**
 * The console: scripts and styles from this origin only (Mantine writes its CSS variables into a
 * style element, hence 'unsafe-inline' for styles), images also from data: and https: (the logo
 * option is a URL), the socket on this origin, and never inside a frame.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: https:",
  "font-src 'self' data:",
  "connect-src 'self' ws: wss:",
  // The chat embed page (/chat/{id}) frames the admin-configured chat links, on any web origin.
  "frame-src 'self' http: https:",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** API answers are data, never a page: nothing may load from them or frame them. */
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  if (length !== undefined) return length !== '0';
  return request.headers['transfer-encoding'] !== undefined;
}

function mediaType(request: FastifyRequest): string {
  return (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
}

function acceptsForm(request: FastifyRequest): boolean {
  return (
    mediaType(request) === 'application/x-www-form-urlencoded' &&
    FORM_BODY_ROUTES.has(`${request.method} ${pathOf(request.url)}`)
  );
}

function checkQuery(query: unknown): void {
  if (!query || typeof query !== 'object') return;
  const entries = Object.entries(query as Record<string, unknown>);
  if (entries.length > MAX_QUERY_PARAMS) throw new ApiError('edge.bad_query');
  for (const [key, value] of entries) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    for (const text of [key, ...values]) {
      if (typeof text !== 'string') continue;
      if (text.length > MAX_QUERY_VALUE || hasBadCharacter(text))
        throw new ApiError('edge.bad_query');
    }
  }
}

/**
 * The edge in front of every controller, all in linear time before any validation runs:
 * - /api bodies: small limits by route (Fastify stops reading past them), JSON only, and a raw-text
 *   scan for depth, value count, string length and forbidden characters before JSON.parse;
 * - /api query strings: few parameters, short values, no NUL or lone surrogates;
 * - security headers: the console's CSP and frame refusal, no-store on every API answer.
 * Other paths (relay, console files) keep the global limit and their own rules.
 */
export function installHttpEdge(fastify: FastifyInstance): void {
  limitBodiesByRoute(fastify);
  installBodyParsers(fastify);
  refuseAtTheHeaders(fastify);
  addSecurityHeaders(fastify);
}

/** Each /api route's body limit, set as the route is registered. */
function limitBodiesByRoute(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const limits = methods
      .map((method) => limitsFor(method, route.url))
      .filter((l) => l !== null)
      .map((l) => l.bodyBytes);
    if (limits.length > 0) route.bodyLimit = Math.max(...limits);
  });
}

/** JSON scanned before it is parsed; forms (Epay's callback) as flat string fields. */
function installBodyParsers(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: RELAY_BODY_LIMIT },
    (request, body, done) => {
      // No body at all, only the header (scripts and SDK wrappers set it on every request): a
      // route that reads none goes on, one that needs one says which fields are required.
      if (body === '') {
        done(null, undefined);
        return;
      }
      const limits = limitsFor(request.method, request.url);
      const problem = limits ? scanJson(body as string, limits) : null;
      if (problem) {
        done(new ApiError(`edge.${problem}`), undefined);
        return;
      }
      if (RAW_BODY_ROUTES.has(`${request.method} ${pathOf(request.url)}`))
        (request as RawBodyRequest).rawBody = body as string;
      void parseJson(request, body as string, done);
    },
  );

  // Flat string fields only (Epay's callback), under the query string's rules; the first of
  // repeated keys wins. onRequest has already refused a form on every other route.
  fastify.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: API_LIMITS.bodyBytes },
    (_request, body, done) => {
      const fields = Object.create(null) as Record<string, string>;
      for (const [key, value] of new URLSearchParams(body as string))
        if (!Object.hasOwn(fields, key)) fields[key] = value;
      try {
        checkQuery(fields);
      } catch (error) {
        done(error as Error, undefined);
        return;
      }
      done(null, fields);
    },
  );
}

/** Refusals decided from the headers and the query string, before a byte of the body is read. */
function refuseAtTheHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (request.is404 && hasBody(request)) {
      // No route will read the body, but Fastify would read it (up to the global limit) before
      // its 404: refuse at the headers and close instead of draining the upload.
      void reply.header('connection', 'close');
      throw new ApiError('common.not_found', {}, 404);
    }
    if (!isApiPath(pathOf(request.url))) return;
    const declared = Number(request.headers['content-length'] ?? 0);
    if (declared > request.routeOptions.bodyLimit) {
      // Refuse before reading a byte, and close the connection instead of draining the upload.
      void reply.header('connection', 'close');
      throw new ApiError('edge.body_too_large', {}, 413);
    }
    if (hasBody(request) && mediaType(request) !== 'application/json' && !acceptsForm(request))
      throw new ApiError('edge.json_only', {}, 415);
    checkQuery(request.query);
  });
}

/** The console's CSP and frame refusal; no-store and a strict CSP on every API answer. */
function addSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-content-type-options', 'nosniff');
    void reply.header('referrer-policy', 'same-origin');
    if (isApiPath(pathOf(request.url))) {
      void reply.header('cache-control', 'no-store');
      void reply.header('content-security-policy', API_CSP);
      return;
    }
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && type.startsWith('text/html')) {
      void reply.header('content-security-policy', CONSOLE_CSP);
      void reply.header('x-frame-options', 'DENY');
    }
  });
}
