/** Error readings the adaptors share when a provider's body says nothing more specific. */
import type { UpstreamErrorInfo } from '../errors/relay-error';

/** The OpenAI error type of a bare HTTP status (the types the channel policy and clients act on). */
export function typeOfStatus(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 429) return 'rate_limit_error';
  return 'upstream_error';
}

/** A body that is not the provider's error JSON (a proxy's page): its text, bounded, is the message. */
export function textError(
  status: number,
  raw: string,
  provider: string,
  type = typeOfStatus(status),
): UpstreamErrorInfo {
  const message = raw.trim().slice(0, 1000) || `${provider} answered HTTP ${status}`;
  return { message, type, code: '' };
}
