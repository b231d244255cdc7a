import { vi } from 'vitest';
import { StorageKey } from '@/lib/storage';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
}

type Handler = (call: RecordedCall) => unknown;

const storedStatus = () =>
  JSON.parse(window.localStorage.getItem(StorageKey.status) ?? '{}') as unknown;

/** Every screen asks for the status; by default it answers with what the test stored. */
const defaults: Record<string, Handler> = {
  'GET /api/status': () => ok(storedStatus()),
};

/**
 * Replaces fetch with a table of `'METHOD /path'` handlers answering envelopes. A handler may
 * return a Response for HTTP-level failures; anything else is the envelope itself.
 */
export function mockApi(handlers: Record<string, Handler>): { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const url = new URL(href, 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init.headers ?? {}) as Record<string, string>,
    };
    calls.push(call);
    const handler = handlers[`${method} ${url.pathname}`] ?? defaults[`${method} ${url.pathname}`];
    if (!handler) return new Response('not found', { status: 404, statusText: 'Not Found' });
    const result = handler(call);
    if (result instanceof Response) return result;
    return new Response(JSON.stringify(result), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}

export const ok = (data?: unknown) => ({ success: true, message: '', data });
export const fail = (message: string) => ({ success: false, message });
