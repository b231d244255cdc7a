/**
 * What every wire of the mock shares: timing, JSON answers, the reply text split into chunks, the
 * usage a behaviour asks for, and SSE writing with the configured pacing and breaks.
 */
import type { ServerResponse } from 'node:http';
import type { MockBehavior } from './mock-behavior';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function sendJson(res: ServerResponse, status: number, payload: unknown, extra = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...extra,
  });
  res.end(text);
}

/** Every later writeHead of `res` carries `extra` over its own headers. */
export function addHeaders(res: ServerResponse, extra: Readonly<Record<string, string>>): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: object) => void;
  res.writeHead = ((status: number, headers?: object) => {
    writeHead(status, { ...headers, ...extra });
    return res;
  }) as typeof res.writeHead;
}

export const retryAfter = (behavior: MockBehavior) => String(behavior.retryAfterSeconds ?? 1);

/** Providers echo only the ends of a wrong key. */
export function maskKey(key: string): string {
  return key.length <= 8 ? '****' : `${key.slice(0, 3)}****${key.slice(-4)}`;
}

export function chunkCount(behavior: MockBehavior): number {
  return Math.max(0, behavior.chunks ?? 3);
}

export function pieces(behavior: MockBehavior): string[] {
  const count = chunkCount(behavior);
  if (behavior.content === undefined) return Array.from({ length: count }, () => 'tok ');
  if (count === 0) return [];
  const size = Math.ceil(behavior.content.length / count) || 1;
  return Array.from({ length: count }, (_, i) => behavior.content!.slice(i * size, (i + 1) * size));
}

export function usageOf(behavior: MockBehavior) {
  const prompt = behavior.usage?.prompt_tokens ?? 10;
  const completion = behavior.usage?.completion_tokens ?? chunkCount(behavior);
  const cached = behavior.usage?.cached_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    // OpenAI reports prompt-cache reads here (only when a test asks for some).
    ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

export const now = () => Math.floor(Date.now() / 1000);

export const sse = (data: string) => `data: ${data}\n\n`;

/** How a wire frames its stream: the headers and one frame's text. */
export interface StreamFormat {
  readonly headers: Record<string, string>;
  readonly frame: (text: string) => string;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
};

/**
 * Writes stream frames with the configured timing. `frames` are the content chunks; `head` goes
 * out with the first one, `tail` (finish, usage, end marker) after the last.
 */
export async function writeStream(
  res: ServerResponse,
  behavior: MockBehavior,
  head: string[],
  frames: string[],
  tail: string[],
  format: StreamFormat = SSE_FORMAT,
): Promise<void> {
  res.writeHead(200, format.headers);
  const frame = format.frame;
  if (
    !behavior.firstChunkMs &&
    !behavior.chunkIntervalMs &&
    behavior.breakAfterChunks === undefined
  ) {
    // Benchmark path: the whole stream in one write, no timers, no listeners.
    res.end(head.map(frame).join('') + frames.map(frame).join('') + tail.map(frame).join(''));
    return;
  }
  let closed = false;
  res.on('close', () => (closed = true));
  if (behavior.firstChunkMs) await sleep(behavior.firstChunkMs);
  const interval = behavior.chunkIntervalMs ?? 0;
  // A provider dying mid-answer: after `breakAt` chunks the connection drops without a tail.
  const breakAt = behavior.breakAfterChunks;
  const sent = breakAt === undefined ? frames.length : Math.min(breakAt, frames.length);
  let pending = head.map(frame).join('');
  for (let i = 0; i < sent; i += 1) {
    pending += frame(frames[i]!);
    if (interval > 0 && i < sent - 1) {
      res.write(pending);
      pending = '';
      await sleep(interval);
      if (closed) return;
    }
  }
  if (closed) return;
  if (breakAt !== undefined) {
    if (pending) res.write(pending);
    // Let the written bytes leave before the reset.
    setImmediate(() => res.socket?.destroy());
    return;
  }
  res.end(pending + tail.map(frame).join(''));
}

/** OpenAI's `data: <json>` frames; other SSE wires pass whole `event:`/`data:` frames. */
export const SSE_FORMAT: StreamFormat = { headers: SSE_HEADERS, frame: sse };

/** SSE whose frames the wire builds whole (`event:` lines and all): written as they are. */
export const WHOLE_SSE_FRAMES: StreamFormat = { headers: SSE_HEADERS, frame: (text) => text };

/** A model name taken from a URL path segment (a malformed escape is kept as it is). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Semantic SSE frames (Anthropic's Messages, OpenAI's Responses): each JSON event's `type` is also
 * its `event:` name.
 */
export const NAMED_SSE_FRAMES: StreamFormat = {
  headers: SSE_HEADERS,
  frame: (json) => `event: ${(JSON.parse(json) as { type: string }).type}\ndata: ${json}\n\n`,
};
