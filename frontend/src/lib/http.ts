import { SESSION_ENDED_HEADER, USER_ID_HEADER, type ApiEnvelope } from '@tollgate/contracts';
import { i18n } from './i18n';
import { getSessionUser } from './session';

/** A reply with success=false: the server's message is meant for the user as is. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    message: string,
    /** The refusal's whole envelope: fields beside `message` some answers carry (a test's status). */
    readonly envelope: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
  }
}

/** A non-2xx HTTP answer (other than 401, which signs the user out instead). */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The session is gone (a 401, or a banned user's session); the redirect already happened. */
export class UnauthorizedError extends Error {
  override readonly name = 'UnauthorizedError';
}

type QueryValue = string | number | boolean | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  signal?: AbortSignal;
}

let onUnauthorized: () => void = () => undefined;
let onSessionEnded: (message: string) => void = () => onUnauthorized();

/**
 * The app decides what a 401 does (clear the user, route to the login page), and what an answer
 * that ended the session says (a banned user: HTTP 200 `用户已被封禁`, its message to be shown).
 */
export function configureHttp(handlers: {
  onUnauthorized: () => void;
  onSessionEnded?: (message: string) => void;
}): void {
  onUnauthorized = handlers.onUnauthorized;
  onSessionEnded = handlers.onSessionEnded ?? (() => handlers.onUnauthorized());
}

function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}

async function readMessage(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as Partial<ApiEnvelope>;
    if (body.message) return body.message;
  } catch {
    // Not JSON: fall back to the status text.
  }
  return response.statusText || String(response.status);
}

/**
 * fetch with what every console call carries — the session cookie, the signed-in user's id and the
 * console's language — and the console's answer to a 401: sign out (UnauthorizedError).
 */
export async function consoleFetch(
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal?: AbortSignal },
): Promise<Response> {
  const headers = { ...init.headers };
  const user = getSessionUser();
  if (user) headers[USER_ID_HEADER] = String(user.id);
  // Server messages (shown as toasts) follow the console's language, not the browser's.
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language) headers['Accept-Language'] = language;
  const response = await fetch(url, { ...init, headers, credentials: 'include' });
  // The server ended the session while answering (its cookie is cleared): sign out as for a 401,
  // but say why — new-api's console shows this answer's message rather than a login page alone.
  if (response.headers.get(SESSION_ENDED_HEADER)) {
    const message = await readMessage(response);
    onSessionEnded(message);
    throw new UnauthorizedError(message);
  }
  if (response.status === 401) {
    onUnauthorized();
    throw new UnauthorizedError(await readMessage(response));
  }
  return response;
}

/** One console API call; resolves with the whole envelope of a successful reply. */
export async function requestEnvelope<T>(
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<ApiEnvelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const response = await consoleFetch(buildUrl(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });

  if (!response.ok) throw new HttpError(response.status, await readMessage(response));

  const envelope = (await response.json()) as ApiEnvelope<T>;
  if (!envelope.success)
    throw new ApiError(envelope.message, envelope as unknown as Record<string, unknown>);
  return envelope;
}

async function request<T>(method: string, path: string, options?: RequestOptions): Promise<T> {
  return (await requestEnvelope<T>(method, path, options)).data as T;
}

export const http = {
  get: <T>(path: string, query?: RequestOptions['query'], signal?: AbortSignal) =>
    request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown, query?: RequestOptions['query']) =>
    request<T>('POST', path, { body, query }),
  put: <T>(path: string, body?: unknown, query?: RequestOptions['query']) =>
    request<T>('PUT', path, { body, query }),
  delete: <T>(path: string) => request<T>('DELETE', path),
};
