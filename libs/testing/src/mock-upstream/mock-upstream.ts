import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { MockBehavior } from './mock-behavior';
import {
  addHeaders,
  maskKey,
  now,
  pieces,
  retryAfter,
  sendJson,
  sleep,
  usageOf,
  writeStream,
} from './mock-kit';
import { multipartBoundary, parseMultipart, type MultipartPart } from './multipart';
import { PROVIDER_WIRES, type ProviderWire } from './wires';

export interface RecordedRequest {
  readonly method: string;
  /** Path without the query string. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The key the caller sent (Bearer, api-key, x-api-key or Api-Key header), '' when none. */
  readonly key: string;
  /** Parsed JSON, multipart parts, or raw text. */
  readonly body: unknown;
  readonly at: number;
}

export interface MockUpstreamOptions {
  /** Only these keys are accepted; any other gets the 401 invalid-key answer. Default: any key. */
  keys?: readonly string[];
  defaults?: MockBehavior;
  /** Keep the last N requests (default 10 000); 0 turns recording off (benchmarks). */
  recordLimit?: number;
  host?: string;
  port?: number;
}

export const DEFAULT_MOCK_MODELS: readonly string[] = [
  'gpt-4o-mini',
  'gpt-4o',
  'text-embedding-3-small',
  'dall-e-3',
  'whisper-1',
  'tts-1',
  'omni-moderation-latest',
];

interface Queued {
  behavior: MockBehavior;
  remaining: number;
}

/**
 * An upstream provider speaking the OpenAI wire format on a real port, for relay tests and
 * benchmarks. See README.md in this folder.
 */
export class MockUpstream {
  readonly requests: RecordedRequest[] = [];
  /** Calls per key, for `failEvery`. */
  private readonly callsByKey = new Map<string, number>();
  private defaultBehavior: MockBehavior;
  private readonly byKey = new Map<string, MockBehavior>();
  private readonly byModel = new Map<string, MockBehavior>();
  private readonly queue: Queued[] = [];
  private keys: Set<string> | undefined;
  private readonly recordLimit: number;
  private counter = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: MockUpstreamOptions,
  ) {
    this.defaultBehavior = { ...options.defaults };
    this.keys = options.keys ? new Set(options.keys) : undefined;
    this.recordLimit = options.recordLimit ?? 10_000;
  }

  /** Starts on a free port of 127.0.0.1 (or the given host/port). */
  static async start(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
    // The handler needs the instance and the instance needs the listening server's address.
    const holder: { mock?: MockUpstream } = {};
    const server = createServer((req, res) => {
      void holder.mock!.handle(req, res).catch((error: unknown) => {
        if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
        else res.destroy();
      });
    });
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const { address, port } = server.address() as AddressInfo;
    const host = address.includes(':') ? `[${address}]` : address;
    holder.mock = new MockUpstream(server, `http://${host}:${port}`, options);
    return holder.mock;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Merges into the behaviour of every call. */
  setDefaults(behavior: MockBehavior): this {
    this.defaultBehavior = { ...this.defaultBehavior, ...behavior };
    return this;
  }

  /** Behaviour of calls made with this key (merged over defaults and model rules). */
  forKey(key: string, behavior: MockBehavior): this {
    this.byKey.set(key, { ...this.byKey.get(key), ...behavior });
    return this;
  }

  /** Behaviour of calls for this model (body `model`). */
  forModel(model: string, behavior: MockBehavior): this {
    this.byModel.set(model, { ...this.byModel.get(model), ...behavior });
    return this;
  }

  /** The next `times` calls (any key, any path) get this behaviour on top of the other rules. */
  next(behavior: MockBehavior, times = 1): this {
    this.queue.push({ behavior, remaining: times });
    return this;
  }

  /** Restricts the accepted keys (undefined = any key). */
  acceptKeys(keys: readonly string[] | undefined): this {
    this.keys = keys ? new Set(keys) : undefined;
    return this;
  }

  /** Forgets every rule and recorded request (back to the start options). */
  reset(): this {
    this.defaultBehavior = { ...this.options.defaults };
    this.byKey.clear();
    this.byModel.clear();
    this.callsByKey.clear();
    this.queue.length = 0;
    this.keys = this.options.keys ? new Set(this.options.keys) : undefined;
    this.requests.length = 0;
    return this;
  }

  /** Recorded requests whose path ends with `suffix` (e.g. '/chat/completions'). */
  requestsTo(suffix: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path.endsWith(suffix));
  }

  lastRequest(): RecordedRequest | undefined {
    return this.requests[this.requests.length - 1];
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private behaviorFor(key: string, model: string | undefined, header: unknown): MockBehavior {
    let behavior: MockBehavior = this.defaultBehavior;
    // Rules only cost a merge when there are any (the benchmark path has none).
    const byModel = model === undefined ? undefined : this.byModel.get(model);
    if (byModel) behavior = { ...behavior, ...byModel };
    const byKey = this.byKey.get(key);
    if (byKey) behavior = { ...behavior, ...byKey };
    const queued = this.queue[0];
    if (queued) {
      behavior = { ...behavior, ...queued.behavior };
      queued.remaining -= 1;
      if (queued.remaining <= 0) this.queue.shift();
    }
    if (typeof header === 'string') {
      try {
        behavior = { ...behavior, ...(JSON.parse(header) as MockBehavior) };
      } catch {
        // A bad test header is ignored rather than turned into a confusing upstream error.
      }
    }
    if (this.keys && !this.keys.has(key) && behavior.status === undefined)
      behavior = { ...behavior, fail: 'invalid_key' };
    return behavior;
  }

  /** `failEvery`: the failure applies to every Nth call of the key only. */
  private flaky(key: string, behavior: MockBehavior): MockBehavior {
    const every = behavior.failEvery;
    if (!every || every <= 1) return behavior;
    const calls = (this.callsByKey.get(key) ?? 0) + 1;
    this.callsByKey.set(key, calls);
    return calls % every === 0 ? behavior : { ...behavior, fail: undefined, status: undefined };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const [pathPart = '/', queryPart = ''] = (req.url ?? '/').split('?', 2);
    const method = req.method ?? 'GET';
    const query = Object.fromEntries(new URLSearchParams(queryPart));
    const key = keyOf(req, query);
    const body = parseBody(req.headers['content-type'], raw);
    const wire = PROVIDER_WIRES.find((w) => w.matches(method, pathPart));
    const model = wire?.modelOf?.(pathPart) ?? modelOf(body);
    if (this.recordLimit > 0) {
      if (this.requests.length >= this.recordLimit) this.requests.shift();
      this.requests.push({
        method,
        path: pathPart,
        query,
        headers: req.headers,
        key,
        body,
        at: Date.now(),
      });
    }
    const behavior = this.flaky(
      key,
      withWrites(this.behaviorFor(key, model, req.headers['x-mock-behavior']), body),
    );
    if (behavior.latencyMs) await sleep(behavior.latencyMs);
    if (behavior.headers) addHeaders(res, behavior.headers);
    if (sendFailure(res, behavior, key, wire)) return;
    this.counter += 1;
    if (wire) {
      const json = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
      await wire.answer({
        method,
        path: pathPart,
        query,
        body: json as Record<string, unknown>,
        behavior,
        res,
        model: model ?? '',
        id: this.counter,
      });
      return;
    }
    this.route(method, pathPart, body, behavior, res, model ?? 'gpt-4o-mini');
  }

  private route(
    method: string,
    path: string,
    body: unknown,
    behavior: MockBehavior,
    res: ServerResponse,
    model: string,
  ): void {
    const json = (body ?? {}) as Record<string, unknown>;
    const id = this.counter;
    const balance = behavior.balance ?? 100;
    if (method === 'GET' && path.endsWith('/models'))
      return sendJson(res, 200, modelList(behavior.models ?? DEFAULT_MOCK_MODELS));
    // MiniMax's v2 chat speaks the OpenAI wire under its own path.
    if (
      method === 'POST' &&
      (path.endsWith('/chat/completions') || path.endsWith('/text/chatcompletion_v2'))
    ) {
      if (json['stream'] === true) return void streamChat(res, behavior, model, id, json);
      return sendJson(res, 200, chatCompletion(behavior, model, id));
    }
    if (method === 'POST' && path.endsWith('/completions')) {
      if (json['stream'] === true) return void streamCompletion(res, behavior, model, id, json);
      return sendJson(res, 200, textCompletion(behavior, model, id));
    }
    if (method === 'POST' && path.endsWith('/embeddings'))
      return sendJson(res, 200, embeddings(behavior, model, json['input']));
    if (method === 'POST' && path.endsWith('/images/generations'))
      return sendJson(res, 200, images(json));
    if (method === 'POST' && path.endsWith('/audio/speech')) {
      res.writeHead(200, { 'content-type': 'audio/mpeg' });
      return void res.end(Buffer.alloc(1024, 7));
    }
    if (
      method === 'POST' &&
      (path.endsWith('/audio/transcriptions') || path.endsWith('/audio/translations'))
    )
      return transcription(res, body);
    if (method === 'POST' && path.endsWith('/moderations'))
      return sendJson(res, 200, moderation(model, json['input'], id));
    if (method === 'POST' && path.endsWith('/rerank'))
      return sendJson(res, 200, rerank(behavior, model, json));
    // Balance endpoints of the channel types with a balance API (see README).
    if (method === 'GET' && path.endsWith('/dashboard/billing/subscription'))
      return sendJson(res, 200, {
        object: 'billing_subscription',
        has_payment_method: true,
        hard_limit_usd: balance + 2.5,
        soft_limit_usd: balance,
        system_hard_limit_usd: balance + 2.5,
        access_until: 0,
      });
    if (method === 'GET' && path.endsWith('/dashboard/billing/usage'))
      return sendJson(res, 200, { object: 'list', total_usage: 250 }); // cents: 2.5 USD used
    if (method === 'GET' && path.endsWith('/dashboard/billing/credit_grants'))
      return sendJson(res, 200, {
        object: 'credit_summary',
        total_granted: balance + 1,
        total_used: 1,
        total_remaining: balance,
        total_available: balance,
      });
    if (method === 'GET' && path.endsWith('/api/report/getUserOverview'))
      return sendJson(res, 200, { success: true, message: '', data: { totalPoints: balance } });
    if (method === 'GET' && path.endsWith('/v1/credits'))
      return sendJson(res, 200, { data: { total_credits: balance + 4, total_usage: 4 } });
    if (method === 'GET' && path.endsWith('/v1/user/info'))
      return sendJson(res, 200, {
        code: 20000,
        message: 'OK',
        status: true,
        data: { balance: String(balance), chargeBalance: '0', totalBalance: String(balance) },
      });
    if (method === 'GET' && path.endsWith('/user/balance'))
      return sendJson(res, 200, {
        is_available: true,
        balance_infos: [
          { currency: 'CNY', total_balance: String(balance), granted_balance: '0' },
          { currency: 'USD', total_balance: '0.00', granted_balance: '0' },
        ],
      });
    sendJson(res, 404, {
      error: { message: `Unknown mock route ${method} ${path}`, type: 'invalid_request_error' },
    });
  }
}

/** `writes` turned into the chunks and the completion tokens the wires answer with. */
function withWrites(behavior: MockBehavior, body: unknown): MockBehavior {
  if (behavior.writes === undefined) return behavior;
  const tokens = behavior.writes === 'ceiling' ? ceilingOf(body) : behavior.writes;
  if (tokens === undefined) return behavior;
  return { ...behavior, chunks: tokens, usage: { ...behavior.usage, completion_tokens: tokens } };
}

/** The output ceiling a request carries, in any of the wires' fields. */
export function ceilingOf(body: unknown): number | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const b = body as Record<string, unknown>;
  const nested = (outer: unknown, key: string): unknown =>
    outer !== null && typeof outer === 'object'
      ? (outer as Record<string, unknown>)[key]
      : undefined;
  const value = [
    b['max_completion_tokens'],
    b['max_tokens'],
    b['max_output_tokens'],
    nested(b['generationConfig'], 'maxOutputTokens'),
    nested(b['options'], 'num_predict'),
  ].find((v) => typeof v === 'number');
  return typeof value === 'number' ? value : undefined;
}

function keyOf(req: IncomingMessage, query: Readonly<Record<string, string>>): string {
  const auth = req.headers['authorization'];
  if (typeof auth === 'string' && /^bearer\s+/i.test(auth)) return auth.replace(/^bearer\s+/i, '');
  for (const header of ['api-key', 'x-api-key', 'x-goog-api-key']) {
    const value = req.headers[header];
    if (typeof value === 'string') return value;
  }
  if (typeof auth === 'string') return auth;
  return query['key'] ?? ''; // Gemini's ?key=
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function parseBody(contentType: string | undefined, raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  const boundary = contentType?.includes('multipart/') ? multipartBoundary(contentType) : undefined;
  if (boundary) return parseMultipart(raw, boundary);
  const text = raw.toString('utf8');
  // OAuth token endpoints take forms (Vertex's service-account grant).
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function modelOf(body: unknown): string | undefined {
  if (Array.isArray(body)) {
    const part = (body as MultipartPart[]).find((p) => p.name === 'model');
    return part?.value;
  }
  if (body && typeof body === 'object') {
    const model = (body as Record<string, unknown>)['model'];
    return typeof model === 'string' ? model : undefined;
  }
  return undefined;
}

/** Answers the configured failure; false when the call should succeed. */
function sendFailure(
  res: ServerResponse,
  behavior: MockBehavior,
  key: string,
  wire: ProviderWire | undefined,
): boolean {
  if (wire && (behavior.fail !== undefined || behavior.status !== undefined)) {
    const status = behavior.status ?? 0;
    if (behavior.status === undefined || (status >= 300 && behavior.errorBody === undefined)) {
      const failure = wire.failure(
        behavior.status === undefined ? behavior.fail! : 'status',
        status,
        key,
      );
      const retry = failure.status === 429 ? { 'retry-after': retryAfter(behavior) } : {};
      sendJson(res, failure.status, failure.body, { ...retry, ...failure.headers });
      return true;
    }
  }
  if (behavior.status !== undefined && behavior.status >= 300) {
    const retry = behavior.status === 429 ? { 'retry-after': retryAfter(behavior) } : {};
    sendJson(
      res,
      behavior.status,
      behavior.errorBody ?? {
        error: { message: `mock status ${behavior.status}`, type: 'mock_error', code: null },
      },
      retry,
    );
    return true;
  }
  switch (behavior.fail) {
    case 'invalid_key':
      sendJson(res, 401, {
        error: {
          message: `Incorrect API key provided: ${maskKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
      return true;
    case 'rate_limit':
      sendJson(
        res,
        429,
        {
          error: {
            message: 'Rate limit reached for requests. Please try again later.',
            type: 'requests',
            param: null,
            code: 'rate_limit_exceeded',
          },
        },
        { 'retry-after': retryAfter(behavior) },
      );
      return true;
    case 'quota_exceeded':
      sendJson(res, 429, {
        error: {
          message: 'You exceeded your current quota, please check your plan and billing details.',
          type: 'insufficient_quota',
          param: null,
          code: 'insufficient_quota',
        },
      });
      return true;
    case 'server_error':
      sendJson(res, 500, {
        error: {
          message: 'The server had an error while processing your request. Sorry about that!',
          type: 'server_error',
          param: null,
          code: null,
        },
      });
      return true;
    default:
      return false;
  }
}

function modelList(models: readonly string[]) {
  return {
    object: 'list',
    data: models.map((id) => ({ id, object: 'model', created: 1700000000, owned_by: 'mock' })),
  };
}

function chatCompletion(behavior: MockBehavior, model: string, id: number) {
  return {
    id: `chatcmpl-mock-${id}`,
    object: 'chat.completion',
    created: now(),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: pieces(behavior).join('') },
        logprobs: null,
        finish_reason: 'stop',
      },
    ],
    usage: usageOf(behavior),
  };
}

function textCompletion(behavior: MockBehavior, model: string, id: number) {
  return {
    id: `cmpl-mock-${id}`,
    object: 'text_completion',
    created: now(),
    model,
    choices: [{ index: 0, text: pieces(behavior).join(''), logprobs: null, finish_reason: 'stop' }],
    usage: usageOf(behavior),
  };
}

function includeUsage(body: Record<string, unknown>): boolean {
  const options = body['stream_options'];
  return (
    typeof options === 'object' &&
    options !== null &&
    (options as Record<string, unknown>)['include_usage'] === true
  );
}

function streamChat(
  res: ServerResponse,
  behavior: MockBehavior,
  model: string,
  id: number,
  body: Record<string, unknown>,
): Promise<void> {
  const withUsage = includeUsage(body);
  const base = `"id":"chatcmpl-mock-${id}","object":"chat.completion.chunk","created":${now()},"model":${JSON.stringify(model)}`;
  const usageNull = withUsage ? ',"usage":null' : '';
  const chunk = (delta: string, finish: string) =>
    `{${base},"choices":[{"index":0,"delta":${delta},"logprobs":null,"finish_reason":${finish}}]${usageNull}}`;
  const head = [chunk('{"role":"assistant","content":""}', 'null')];
  const frames = pieces(behavior).map((text) =>
    chunk(`{"content":${JSON.stringify(text)}}`, 'null'),
  );
  if (behavior.streamError !== undefined)
    return writeStream(res, behavior, head, frames, [JSON.stringify(behavior.streamError)]);
  const tail = [chunk('{}', '"stop"')];
  if (withUsage) tail.push(`{${base},"choices":[],"usage":${JSON.stringify(usageOf(behavior))}}`);
  tail.push('[DONE]');
  return writeStream(res, behavior, head, frames, tail);
}

function streamCompletion(
  res: ServerResponse,
  behavior: MockBehavior,
  model: string,
  id: number,
  body: Record<string, unknown>,
): Promise<void> {
  const base = `"id":"cmpl-mock-${id}","object":"text_completion","created":${now()},"model":${JSON.stringify(model)}`;
  const frames = pieces(behavior).map(
    (text) =>
      `{${base},"choices":[{"index":0,"text":${JSON.stringify(text)},"logprobs":null,"finish_reason":null}]}`,
  );
  const tail = [
    `{${base},"choices":[{"index":0,"text":"","logprobs":null,"finish_reason":"stop"}]}`,
  ];
  if (includeUsage(body))
    tail.push(`{${base},"choices":[],"usage":${JSON.stringify(usageOf(behavior))}}`);
  tail.push('[DONE]');
  return writeStream(res, behavior, [], frames, tail);
}

function embeddings(behavior: MockBehavior, model: string, input: unknown) {
  const inputs = Array.isArray(input) ? input : [input];
  const prompt = behavior.usage?.prompt_tokens ?? 10;
  return {
    object: 'list',
    data: inputs.map((_, index) => ({
      object: 'embedding',
      index,
      embedding: [0.0023, -0.0093, 0.0158, 0.0041],
    })),
    model,
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
}

function images(body: Record<string, unknown>) {
  const n = typeof body['n'] === 'number' && body['n'] > 0 ? Math.min(body['n'], 10) : 1;
  const b64 = body['response_format'] === 'b64_json';
  return {
    created: now(),
    data: Array.from({ length: n }, (_, i) =>
      b64
        ? { b64_json: Buffer.from(`mock image ${i}`).toString('base64') }
        : { url: `https://mock.invalid/image-${i}.png`, revised_prompt: body['prompt'] },
    ),
  };
}

function transcription(res: ServerResponse, body: unknown): void {
  const parts = Array.isArray(body) ? (body as MultipartPart[]) : [];
  const file = parts.find((p) => p.filename !== undefined);
  if (!file) {
    sendJson(res, 400, {
      error: { message: 'No audio file provided', type: 'invalid_request_error', code: null },
    });
    return;
  }
  const format = parts.find((p) => p.name === 'response_format')?.value ?? 'json';
  const text = `mock transcription of ${file.filename} (${file.size} bytes)`;
  if (format === 'text' || format === 'srt' || format === 'vtt') {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(text);
    return;
  }
  if (format === 'verbose_json') {
    sendJson(res, 200, { task: 'transcribe', language: 'english', duration: 1.5, text });
    return;
  }
  sendJson(res, 200, { text });
}

function moderation(model: string, input: unknown, id: number) {
  const inputs = Array.isArray(input) ? input : [input];
  return {
    id: `modr-mock-${id}`,
    model,
    results: inputs.map((text) => {
      const flagged = typeof text === 'string' && /\bkill\b/i.test(text);
      return {
        flagged,
        categories: { violence: flagged, hate: false, sexual: false, 'self-harm': false },
        category_scores: {
          violence: flagged ? 0.98 : 0.0001,
          hate: 0.0001,
          sexual: 0.0001,
          'self-harm': 0.0001,
        },
      };
    }),
  };
}

/**
 * Jina/Cohere-style rerank: documents scored by how many of the query's words they hold, best
 * first, `top_n` of them; usage is prompt tokens only (total = prompt).
 */
function rerank(behavior: MockBehavior, model: string, body: Record<string, unknown>) {
  const query = typeof body['query'] === 'string' ? body['query'] : '';
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const documents = Array.isArray(body['documents']) ? body['documents'] : [];
  const scored = documents.map((document, index) => {
    const text = typeof document === 'string' ? document : JSON.stringify(document);
    const hits = words.filter((word) => text.toLowerCase().includes(word)).length;
    return { index, document: { text }, relevance_score: (hits + 1) / (words.length + 2) };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = typeof body['top_n'] === 'number' ? body['top_n'] : scored.length;
  const prompt = behavior.usage?.prompt_tokens ?? 10;
  return {
    model,
    results: scored
      .slice(0, topN)
      .map((r) => (body['return_documents'] === false ? { ...r, document: undefined } : r)),
    usage: { prompt_tokens: prompt, total_tokens: prompt },
  };
}
