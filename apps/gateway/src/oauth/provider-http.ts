/** Answers larger than this are not an identity: refused rather than buffered. */
const MAX_BODY_BYTES = 1024 * 1024;

/** A call to a provider failed (network, timeout, status, body): no detail that could hold a secret. */
export class ProviderCallError extends Error {}

/**
 * One JSON call to a sign-in provider, bounded in time and size. The URL never carries a secret
 * (client secrets go in the body or a header), so the error may name it.
 */
export async function callProviderJson(
  url: string,
  init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string },
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { Accept: 'application/json', 'User-Agent': 'Tollgate', ...init.headers },
      body: init.body,
      redirect: 'error',
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    throw new ProviderCallError(`${new URL(url).origin}: ${(error as Error).name}`);
  }
  const text = await response.text().catch(() => '');
  if (text.length > MAX_BODY_BYTES)
    throw new ProviderCallError(`${new URL(url).origin}: answer too large`);
  let body: unknown = null;
  try {
    body = text ? (JSON.parse(text) as unknown) : null;
  } catch {
    body = null;
  }
  return { status: response.status, body };
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A string field, or '' when absent or of another type. */
export const text = (record: Record<string, unknown>, key: string): string => {
  const value = record[key];
  return typeof value === 'string' ? value : '';
};
