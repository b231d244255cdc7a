import type { JsonLimits } from './json-scan';

export interface EdgeLimits extends JsonLimits {
  /** Largest body accepted, in bytes; Fastify stops reading past it. */
  readonly bodyBytes: number;
}

const KIB = 1024;

/** Every console API route: the console's forms are small. */
export const API_LIMITS: EdgeLimits = {
  bodyBytes: 64 * KIB,
  maxDepth: 16,
  maxValues: 512,
  maxStringLength: 16 * KIB,
};

/** Routes whose fields need more room, by `METHOD /path` (no trailing slash). */
const LARGER: Readonly<Record<string, EdgeLimits>> = {
  // Option values hold whole documents: home page content, model ratio tables, chat presets.
  'PUT /api/option': { ...API_LIMITS, bodyBytes: 1024 * KIB, maxStringLength: 1024 * KIB },
  // Stripe's events carry the whole object (a Checkout session has ~100 fields, more with metadata).
  'POST /api/stripe/webhook': { ...API_LIMITS, bodyBytes: 512 * KIB, maxValues: 8192 },
};

/** Routes whose handler needs the body's exact text (signature checks): kept as `rawBody`. */
export const RAW_BODY_ROUTES: ReadonlySet<string> = new Set(['POST /api/stripe/webhook']);

/** Routes that take a form body (application/x-www-form-urlencoded): Epay posts its callbacks so. */
export const FORM_BODY_ROUTES: ReadonlySet<string> = new Set(['POST /api/user/epay/notify']);

/** The body exactly as received, on the RAW_BODY_ROUTES only. */
export interface RawBodyRequest {
  rawBody?: string;
}

/** Only the console API is bounded here; the relay (/v1, /pg, /mj, /suno) keeps its own limits. */
export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}

export function pathOf(url: string): string {
  const path = url.split('?')[0] ?? '/';
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

/** The limits of a request, or null outside /api. */
export function limitsFor(method: string, url: string): EdgeLimits | null {
  const path = pathOf(url);
  if (!isApiPath(path)) return null;
  return LARGER[`${method.toUpperCase()} ${path}`] ?? API_LIMITS;
}
