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
};

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
