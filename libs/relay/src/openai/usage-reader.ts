/**
 * Reads usage out of upstream answers without touching the bytes the client gets. Streams: the
 * reader watches SSE lines as chunks pass, parses only `data:` lines that mention "usage" (the last
 * chunk when include_usage was asked), notes the first chunk's time and `[DONE]`, and keeps the
 * chunks (bounded) so the completion can be counted locally if no usage ever comes.
 */
import type { JsonObject } from './request-body';
import { countText } from '../tokens/token-estimate';

/** Usage in OpenAI's meaning, whatever the provider called it. */
export interface UpstreamUsage {
  /** Every prompt token, the cached and cache-writing ones included. */
  readonly promptTokens: number;
  readonly completionTokens: number;
  /** Part of promptTokens read from the provider's prompt cache. */
  readonly cachedTokens: number;
  /** Part of promptTokens written to the provider's prompt cache (Anthropic, billed apart). */
  readonly cacheCreationTokens?: number;
  /** Part of completionTokens spent on reasoning (shown in the log, billed as completion). */
  readonly reasoningTokens?: number;
}

const num = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;

/** OpenAI usage objects (chat, completions, embeddings, images with tokens, rerank variants). */
export function usageFromObject(usage: unknown): UpstreamUsage | undefined {
  if (usage === null || typeof usage !== 'object') return undefined;
  const u = usage as JsonObject;
  const details = (u.prompt_tokens_details ?? u.input_tokens_details) as JsonObject | undefined;
  const outDetails = (u.completion_tokens_details ?? u.output_tokens_details) as
    JsonObject | undefined;
  const prompt = num(u.prompt_tokens ?? u.input_tokens);
  let completion = num(u.completion_tokens ?? u.output_tokens);
  const total = num(u.total_tokens);
  if (completion === 0 && total > prompt && u.completion_tokens === undefined) {
    completion = total - prompt;
  }
  if (prompt === 0 && completion === 0 && total === 0) return undefined;
  return {
    promptTokens: prompt === 0 && completion === 0 ? total : prompt,
    completionTokens: completion,
    cachedTokens: num(details?.cached_tokens),
    ...(num(outDetails?.reasoning_tokens) > 0
      ? { reasoningTokens: num(outDetails?.reasoning_tokens) }
      : {}),
  };
}

const USAGE_KEY = Buffer.from('"usage"');

/**
 * Usage of a JSON answer. Looks at the last `"usage"` key first and parses only that object (an
 * embeddings answer is megabytes of floats before it); parses the whole body only as a fallback.
 */
export function usageFromJson(raw: Buffer): UpstreamUsage | undefined {
  const at = raw.lastIndexOf(USAGE_KEY);
  if (at === -1) return undefined;
  const open = raw.indexOf(0x7b, at); // '{'
  if (open === -1) return undefined;
  const close = matchingBrace(raw, open);
  if (close === -1) return undefined;
  try {
    return usageFromObject(JSON.parse(raw.subarray(open, close + 1).toString('utf8')));
  } catch {
    return undefined;
  }
}

function matchingBrace(raw: Buffer, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < raw.length; i++) {
    const c = raw[i];
    if (inString) {
      if (c === 0x5c)
        i++; // backslash escapes the next byte
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b) depth++;
    else if (c === 0x7d && --depth === 0) return i;
  }
  return -1;
}

/** The text of a chat/completions JSON answer (to count completion tokens locally). */
export function completionTextOfJson(body: unknown): string {
  if (body === null || typeof body !== 'object') return '';
  const b = body as JsonObject;
  if (typeof b.type === 'string' && b.type.startsWith('response.')) {
    // Responses API stream events: only the deltas (the *.done events repeat the whole text).
    return b.type.endsWith('.delta') && typeof b.delta === 'string' ? b.delta : '';
  }
  if (typeof b.text === 'string') return b.text; // audio transcriptions
  if (Array.isArray(b.output)) return responsesOutputText(b.output); // Responses API answers
  if (!Array.isArray(b.choices)) return '';
  let text = '';
  for (const choice of b.choices as unknown[]) {
    if (choice === null || typeof choice !== 'object') continue;
    const c = choice as JsonObject;
    const message = (c.message ?? c.delta) as JsonObject | undefined;
    if (typeof c.text === 'string') text += c.text;
    if (message && typeof message.content === 'string') text += message.content;
    if (message && typeof message.reasoning_content === 'string') text += message.reasoning_content;
    if (message && Array.isArray(message.tool_calls)) text += JSON.stringify(message.tool_calls);
  }
  return text;
}

export interface StreamOutcome {
  readonly usage: UpstreamUsage | undefined;
  /** ms timestamp of the first data chunk, if any. */
  readonly firstChunkAt: number | undefined;
  readonly sawDone: boolean;
  /** The first `data: {"error": …}` event, if the upstream reported one mid-stream. */
  readonly streamError: string | undefined;
  readonly bytes: number;
  readonly chunks: number;
}

const DONE = Buffer.from('[DONE]');
const DATA = Buffer.from('data:');
const ERROR_KEY = Buffer.from('"error"');

const NULL = Buffer.from('null');

/** Whether `payload` has a `"usage"` not followed by `: null` (the usage of a stream's last chunk). */
function mentionsNonNullUsage(payload: Buffer): boolean {
  for (let at = payload.indexOf(USAGE_KEY); at !== -1; at = payload.indexOf(USAGE_KEY, at + 1)) {
    let i = skipBlanks(payload, at + USAGE_KEY.length);
    if (payload[i] !== 0x3a) return true; // a "usage" that is no key: parse to be sure
    i = skipBlanks(payload, i + 1);
    if (i + NULL.length > payload.length) return true;
    if (payload.compare(NULL, 0, NULL.length, i, i + NULL.length) !== 0) return true;
  }
  return false;
}

/** `data[from, to)` in a buffer of its own (the chunk it came in is not kept alive by it). */
function copyOf(data: Buffer, from: number, to: number): Buffer {
  const copy = Buffer.allocUnsafe(to - from);
  data.copy(copy, 0, from, to);
  return copy;
}

function skipBlanks(bytes: Buffer, from: number): number {
  let i = from;
  while (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d) i += 1;
  return i;
}

/** Watches an SSE stream's bytes as they pass to the client. */
export class SseUsageReader {
  private pending: Buffer | undefined;
  private usage: UpstreamUsage | undefined;
  private firstChunkAt: number | undefined;
  private sawDone = false;
  private streamError: string | undefined;
  private bytes = 0;
  private chunks = 0;
  private readonly kept: Buffer[] = [];
  private keptBytes = 0;
  /** False once the caller counts the rest itself (`stopKeeping`). */
  private keeping = true;

  /** `keepLimit`: bytes kept for local counting when the upstream sends no usage. */
  constructor(
    private readonly now: () => number,
    private readonly keepLimit = 4 * 1024 * 1024,
  ) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.firstChunkAt ??= this.now();
    this.bytes += chunk.length;
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
      this.line(data, start, nl);
      start = nl + 1;
    }
    this.pending = start < data.length ? copyOf(data, start, data.length) : undefined;
  }

  /** The line `data[from, to)`: read by offsets, one copy at most (this runs on every event). */
  private line(data: Buffer, from: number, to: number): void {
    if (
      to - from < DATA.length ||
      data.compare(DATA, 0, DATA.length, from, from + DATA.length) !== 0
    ) {
      return;
    }
    let start = from + DATA.length;
    let end = to;
    while (start < end && (data[start] === 0x20 || data[start] === 0x09)) start += 1;
    if (end > start && data[end - 1] === 0x0d) end -= 1;
    if (start === end) return;
    this.chunks += 1;
    if (end - start === DONE.length && data.compare(DONE, 0, DONE.length, start, end) === 0) {
      this.sawDone = true;
      return;
    }
    let payload: Buffer;
    if (this.keeping && this.keptBytes + end - start <= this.keepLimit) {
      payload = copyOf(data, start, end);
      this.kept.push(payload);
      this.keptBytes += payload.length;
    } else payload = data.subarray(start, end);
    // `"usage":null` on every chunk (include_usage) says nothing: such a chunk is not parsed.
    const mentionsUsage = mentionsNonNullUsage(payload);
    const mentionsError = this.streamError === undefined && payload.indexOf(ERROR_KEY) !== -1;
    if (!mentionsUsage && !mentionsError) return;
    try {
      const event = JSON.parse(payload.toString('utf8')) as JsonObject;
      // Responses API streams carry it in response.completed's `response`.
      const usage =
        usageFromObject(event.usage) ??
        (event.response !== null && typeof event.response === 'object'
          ? usageFromObject((event.response as JsonObject).usage)
          : undefined);
      if (usage) this.usage = usage;
      if (mentionsError && event.error !== undefined && event.error !== null) {
        const e = event.error as JsonObject;
        this.streamError =
          typeof e.message === 'string' ? e.message : JSON.stringify(event.error).slice(0, 500);
      }
    } catch {
      // A line that is not JSON passes through; it just carries no usage.
    }
  }

  end(): StreamOutcome {
    if (this.pending) {
      const rest = this.pending;
      this.pending = undefined;
      this.line(rest, 0, rest.length);
    }
    return {
      usage: this.usage,
      firstChunkAt: this.firstChunkAt,
      sawDone: this.sawDone,
      streamError: this.streamError,
      bytes: this.bytes,
      chunks: this.chunks,
    };
  }

  /**
   * Keeps no more payloads, and lets go of those kept: the caller counts the completion from here
   * on itself (a metered stream counts every event once past its bytes' bound), so a long answer's
   * events are not held twice until its end. `completionText` then answers for what came before.
   */
  stopKeeping(): void {
    this.keeping = false;
    this.kept.length = 0;
    this.keptBytes = 0;
  }

  /** Completion tokens counted from the kept chunks (when the upstream sent no usage). */
  countCompletionLocally(): number {
    return countText(this.completionText());
  }

  /** The completion text of the kept chunks so far. */
  completionText(): string {
    let text = '';
    for (const payload of this.kept) {
      try {
        text += completionTextOfJson(JSON.parse(payload.toString('utf8')));
      } catch {
        // not JSON: nothing to count
      }
    }
    return text;
  }
}

/** The text of a Responses API answer's output items (message parts and reasoning summaries). */
function responsesOutputText(output: unknown[]): string {
  let text = '';
  for (const item of output) {
    if (item === null || typeof item !== 'object') continue;
    const parts = (item as JsonObject).content ?? (item as JsonObject).summary;
    if (!Array.isArray(parts)) continue;
    for (const part of parts as unknown[]) {
      if (
        part !== null &&
        typeof part === 'object' &&
        typeof (part as JsonObject).text === 'string'
      )
        text += (part as JsonObject).text as string;
    }
  }
  return text;
}
