import { consoleFetch } from './http';

export interface EventStreamHandlers {
  /** Each `data:` payload except [DONE], in order; returning true ends the stream there. */
  onData: (data: string) => boolean | void;
}

/** Why a stream ended. */
export type EventStreamEnd = { kind: 'done' } | { kind: 'error'; message: string };

/**
 * POSTs JSON and reads the answer as server-sent events (fetch + a line reader, since EventSource
 * cannot POST). Ends on `data: [DONE]`, on the end of the body, or with the error body of a non-2xx
 * answer. Never reconnects (reconnecting is off by default). A 401 signs the user
 * out as every console call does.
 */
export async function postEventStream(
  path: string,
  body: unknown,
  handlers: EventStreamHandlers,
  signal?: AbortSignal,
): Promise<EventStreamEnd> {
  let response: Response;
  try {
    response = await consoleFetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
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
