import { NOT_IMPLEMENTED_ROUTES, RELAY_ENDPOINTS } from '@tollgate/relay';
import fastify, { type FastifyInstance } from 'fastify';
import { LAZY_SCHEMA_COMPILERS } from '../http-edge/schema-compilers';
import type { ApiRoute, BodyShape, RouteRole } from './api-route';
import { pathParamNames, toOpenApiPath } from './api-route';

/** Anything that registers routes on a Fastify instance (the relay's RelayRoutes). */
export interface RouteRegistrar {
  register(instance: FastifyInstance): void;
}

/** `METHOD url` of every route the registrar adds, read on a bare probe instance (HEAD left out). */
export async function probeRoutes(
  registrar: RouteRegistrar,
): Promise<Array<{ method: string; url: string }>> {
  const probe = fastify({ schemaController: { compilersFactory: LAZY_SCHEMA_COMPILERS } });
  const routes: Array<{ method: string; url: string }> = [];
  probe.addHook('onRoute', (route) => {
    for (const method of [route.method].flat())
      if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  registrar.register(probe);
  await probe.ready();
  await probe.close();
  return routes;
}

const OPENAI_ENDPOINT_OF = new Map(
  Object.entries(RELAY_ENDPOINTS).map(([endpoint, tail]) => [`/v1${tail}`, endpoint]),
);
const NOT_IMPLEMENTED = new Set(NOT_IMPLEMENTED_ROUTES.map((r) => `${r.method} ${r.url}`));

/**
 * Who may call a relay route: the CORS preflight and Midjourney's image proxy need nothing, the
 * console's playground the signed-in user, every other route an API key.
 */
function relayRole(method: string, url: string): RouteRole {
  if (method === 'OPTIONS' || /\/mj\/image\/:id$/.test(url)) return 'public';
  if (url.startsWith('/pg/')) return 'user';
  return 'token';
}

/** What the route speaks, from the relay's own tables (RELAY_ENDPOINTS, NOT_IMPLEMENTED_ROUTES). */
function relayNote(method: string, url: string): string {
  if (NOT_IMPLEMENTED.has(`${method} ${url}`))
    return 'Not implemented: answers 501 api_not_implemented.';
  const endpoint = OPENAI_ENDPOINT_OF.get(url);
  if (endpoint)
    return `OpenAI-compatible \`${endpoint}\` endpoint, relayed to a channel serving the model.`;
  if (url.startsWith('/v1/messages')) return 'Anthropic Messages API (key in x-api-key or Bearer).';
  if (url.startsWith('/v1beta/'))
    return 'Gemini native API (key in x-goog-api-key, ?key= or Bearer).';
  if (url.startsWith('/pg/')) return "The console's playground, billed to the signed-in user.";
  if (method === 'OPTIONS') return 'CORS preflight.';
  return '';
}

const AUDIO_UPLOADS = new Set([
  `/v1${RELAY_ENDPOINTS.audioTranscriptions}`,
  `/v1${RELAY_ENDPOINTS.audioTranslations}`,
]);

/** The body a relay POST takes: a form for audio uploads, `model` in the JSON where it goes there. */
function relayBody(url: string): BodyShape {
  if (AUDIO_UPLOADS.has(url)) return 'multipart';
  const namesModel =
    (OPENAI_ENDPOINT_OF.has(url) && !NOT_IMPLEMENTED.has(`POST ${url}`)) ||
    url.startsWith('/v1/messages') ||
    url.startsWith('/pg/');
  return namesModel ? 'model' : 'object';
}

/** The tag of a relay route: its front (/v1, /v1beta, /pg, /dashboard, /mj…, /suno). */
function relayTag(url: string): string {
  const first = url.split('/')[1] ?? '';
  return `Relay /${first.startsWith('mj') ? 'mj' : first}`;
}

/** The relay's routes as the generator documents them. */
export function relayApiRoutes(routes: ReadonlyArray<{ method: string; url: string }>): ApiRoute[] {
  return routes.map(({ method, url }) => {
    const path = toOpenApiPath(url);
    const slug = path.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_|_$/g, '');
    return {
      method,
      path,
      tag: relayTag(url),
      operationId: `relay_${method.toLowerCase()}_${slug}`,
      summary: `${method} ${path}`,
      role: relayRole(method, url),
      family: 'relay',
      pathParams: pathParamNames(path).map((name) => ({ name, type: 'string' })),
      body: method === 'POST' ? relayBody(url) : undefined,
      note: relayNote(method, url),
    };
  });
}
