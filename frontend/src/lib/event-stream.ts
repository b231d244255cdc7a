import { USER_ID_HEADER } from '@tollgate/contracts';
import { i18n } from './i18n';
import { getSessionUser } from './session';

export interface EventStreamHandlers {
  /** Each `data:` payload except [DONE], in order; returning true ends the stream there. */
  onData: (data: string) => boolean | void;
}

/** Why a stream ended. */
export type EventStreamEnd = { kind: 'done' } | { kind: 'error'; message: string };

/**
 * POSTs JSON and reads the answer as server-sent events (fetch + a line reader, since EventSource
 * cannot POST). Ends on `data: [DONE]`, on the end of the body, or with the error body of a non-2xx
 * answer. Never reconnects (spec 001 §4: reconnecting is off by default).
 */
export async function postEventStream(
  path: string,
  body: unknown,
  handlers: EventStreamHandlers,
  signal?: AbortSignal,
): Promise<EventStreamEnd> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'text/event-stream',
  };
  const user = getSessionUser();
  if (user) headers[USER_ID_HEADER] = String(user.id);
  const language = i18n.resolvedLanguage ?? i18n.language;
  if (language) headers['Accept-Language'] = language;
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers,
      credentials: 'include',
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  if (!response.ok || !response.body) {
    return { kind: 'error', message: await response.text().catch(() => response.statusText) };
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      pending += decoder.decode(value, { stream: true });
      let newline = pending.indexOf('\n');
      while (newline !== -1) {
        const line = pending.slice(0, newline).replace(/\r$/, '');
        pending = pending.slice(newline + 1);
        if (line.startsWith('data:')) {
          const data = line.slice(5).trim();
          if (data === '[DONE]') {
            void reader.cancel();
            return { kind: 'done' };
          }
          if (data && handlers.onData(data) === true) {
            void reader.cancel();
            return { kind: 'done' };
          }
        }
        newline = pending.indexOf('\n');
      }
    }
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  return { kind: 'done' };
}
