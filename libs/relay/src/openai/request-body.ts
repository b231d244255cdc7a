/**
 * Request bodies pass through as the client sent them: the relay parses what routing and billing
 * need, and rewrites bytes only when the upstream must see something else (a mapped model name, or
 * `stream_options.include_usage` so the upstream reports usage on a stream).
 */
import { withFields } from '@tollgate/domain';
import { RELAY_ENDPOINTS, type RelayEndpoint } from './openai-wire';

export type JsonObject = Record<string, unknown>;

/** Parses a JSON object (a body, an option); undefined for anything else (arrays, bad JSON…). */
export function parseJsonObject(raw: Buffer | string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as JsonObject)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Default models of one-api and new-api when a body names none. */
const DEFAULT_MODELS: Partial<Record<RelayEndpoint, string>> = {
  moderations: 'text-moderation-stable',
  imagesGenerations: 'dall-e-2',
  audioSpeech: 'tts-1',
  audioTranscriptions: 'whisper-1',
  audioTranslations: 'whisper-1',
};

export function defaultModel(endpoint: RelayEndpoint): string | undefined {
  return DEFAULT_MODELS[endpoint];
}

/** The fields of a JSON request that routing and billing read. */
export interface RequestFacts {
  readonly model: string;
  readonly stream: boolean;
  /** max_tokens / max_completion_tokens when a positive integer. */
  readonly maxTokens: number | undefined;
  /** Images: n × the size/quality multiplier is billed as n calls. */
  readonly n: number;
  /** Chat and completions: the choices an answer holds (`n`, `best_of`), each up to the ceiling. */
  readonly choices: number;
}

export function requestFacts(endpoint: RelayEndpoint, body: JsonObject): RequestFacts {
  const model = typeof body.model === 'string' ? body.model.trim() : '';
  const max =
    positiveInt(body.max_completion_tokens) ??
    positiveInt(body.max_tokens) ??
    positiveInt(body.max_output_tokens) ??
    undefined;
  return {
    model: model || (defaultModel(endpoint) ?? ''),
    stream:
      body.stream === true &&
      (endpoint === 'chat' || endpoint === 'completions' || endpoint === 'responses'),
    maxTokens: max,
    n: endpoint === 'imagesGenerations' ? (positiveInt(body.n) ?? 1) : 1,
    choices:
      endpoint === 'chat' || endpoint === 'completions'
        ? Math.max(
            positiveInt(body.n) ?? 1,
            endpoint === 'completions' ? (positiveInt(body.best_of) ?? 1) : 1,
          )
        : 1,
  };
}

function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * The bytes to send upstream. Unchanged when nothing needs changing; `include_usage` is spliced in
 * before the closing brace when the client sent no stream_options (no re-serialisation of a large
 * prompt); anything else re-serialises once.
 */
export function outgoingJson(
  raw: Buffer,
  body: JsonObject,
  change: { readonly model?: string; readonly includeUsage?: boolean },
): Buffer {
  const renameModel = change.model !== undefined && change.model !== body.model;
  const options = body.stream_options;
  const hasUsageAlready =
    options !== null &&
    typeof options === 'object' &&
    (options as JsonObject).include_usage === true;
  const injectUsage = change.includeUsage === true && !hasUsageAlready;
  if (!renameModel && !injectUsage) return raw;
  if (!renameModel && options === undefined) {
    const end = raw.lastIndexOf(0x7d); // '}'
    if (end > 0) {
      const emptyObject = raw.subarray(0, end).toString('utf8').trim() === '{';
      const insert = Buffer.from(
        `${emptyObject ? '' : ','}"stream_options":{"include_usage":true}`,
        'utf8',
      );
      return Buffer.concat([raw.subarray(0, end), insert, raw.subarray(end)]);
    }
  }
  const next: JsonObject = { ...body };
  if (renameModel) next.model = change.model;
  if (injectUsage) {
    next.stream_options = withFields(
      options !== null && typeof options === 'object' ? options : {},
      { include_usage: true },
    );
  }
  return Buffer.from(JSON.stringify(next), 'utf8');
}

/** `/v1/engines/:model/embeddings` and friends: the endpoint of a relay path. */
export function endpointOfPath(path: string): RelayEndpoint | undefined {
  const bare = path.replace(/^\/(?:v1|pg)/, '');
  for (const [endpoint, tail] of Object.entries(RELAY_ENDPOINTS)) {
    if (bare === tail) return endpoint as RelayEndpoint;
  }
  if (/^\/engines\/[^/]+\/embeddings$/.test(bare)) return 'embeddings';
  return undefined;
}

// --- multipart/form-data (audio transcriptions and translations) ---

export function multipartBoundary(contentType: string): string | undefined {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2]?.trim();
}

interface FieldSpan {
  readonly valueStart: number;
  readonly valueEnd: number;
}

function findField(body: Buffer, boundary: string, name: string): FieldSpan | undefined {
  const delimiter = Buffer.from(`--${boundary}`);
  const headerEnd = Buffer.from('\r\n\r\n');
  let at = body.indexOf(delimiter);
  while (at !== -1) {
    const headersStart = at + delimiter.length + 2; // past CRLF
    const headersStop = body.indexOf(headerEnd, headersStart);
    if (headersStop === -1) return undefined;
    const next = body.indexOf(delimiter, headersStop);
    if (next === -1) return undefined;
    const headers = body.subarray(headersStart, headersStop).toString('latin1');
    const fieldName = /content-disposition:[^\r\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
    if (fieldName === name && !/filename=/i.test(headers)) {
      return { valueStart: headersStop + headerEnd.length, valueEnd: next - 2 }; // before CRLF
    }
    at = next;
  }
  return undefined;
}

/** A text field of a multipart body (e.g. `model`), without copying the file parts. */
export function readMultipartField(
  body: Buffer,
  boundary: string,
  name: string,
): string | undefined {
  const span = findField(body, boundary, name);
  return span ? body.subarray(span.valueStart, span.valueEnd).toString('utf8') : undefined;
}

/** The same body with one text field's value replaced (a mapped model name). */
export function replaceMultipartField(
  body: Buffer,
  boundary: string,
  name: string,
  value: string,
): Buffer {
  const span = findField(body, boundary, name);
  if (!span) return body;
  return Buffer.concat([
    body.subarray(0, span.valueStart),
    Buffer.from(value, 'utf8'),
    body.subarray(span.valueEnd),
  ]);
}
