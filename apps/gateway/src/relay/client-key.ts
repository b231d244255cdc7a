/**
 * Where each client protocol puts its key, and which protocol a model-list request speaks
 * (new-api answers /v1/models in Anthropic's or Gemini's shape when the client's headers say so).
 */
import type { IngressKind } from '@tollgate/relay';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const first = (value: string | string[] | undefined): string | undefined =>
  Array.isArray(value) ? value[0] : value;

/** The key as an Authorization-style value (the admission strips `Bearer` and `sk-`). */
export function clientKey(
  ingress: IngressKind | undefined,
  headers: Headers,
  query: Readonly<Record<string, unknown>>,
): string | undefined {
  const authorization = first(headers.authorization);
  if (ingress === 'anthropic') return first(headers['x-api-key']) ?? authorization;
  if (ingress === 'gemini') {
    const key = typeof query.key === 'string' ? query.key : undefined;
    return first(headers['x-goog-api-key']) ?? key ?? authorization;
  }
  return authorization;
}

/**
 * Anthropic clients always send anthropic-version (their key may be x-api-key or, in newer SDKs,
 * Bearer); Gemini clients x-goog-api-key or ?key=. OpenAI clients send neither.
 */
export function listFormatOf(
  headers: Headers,
  query: Readonly<Record<string, unknown>>,
): IngressKind | undefined {
  if (first(headers['anthropic-version'])) return 'anthropic';
  if (first(headers['x-goog-api-key']) || typeof query.key === 'string') return 'gemini';
  return undefined;
}
