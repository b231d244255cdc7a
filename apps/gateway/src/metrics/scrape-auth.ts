import { createHash, timingSafeEqual } from 'node:crypto';

const BEARER = /^Bearer\s+(.+)$/i;

/**
 * Whether a scrape may read /metrics: always without METRICS_TOKEN, else only with
 * `Authorization: Bearer <token>`. Both sides are hashed first so the comparison takes the same
 * time whatever the sent value's length or content.
 */
export function scrapeAllowed(
  token: string | undefined,
  authorization: string | undefined,
): boolean {
  if (token === undefined) return true;
  const sent = BEARER.exec(authorization ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(sent), digest(token));
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
