/** Canned provider failures (OpenAI wire shapes). */
export type MockFailure = 'invalid_key' | 'rate_limit' | 'quota_exceeded' | 'server_error';

/**
 * How the mock answers. Every field is optional; rules are merged in this order (later wins):
 * defaults → forModel → forKey → next() → the request's `x-mock-behavior` JSON header.
 */
export interface MockBehavior {
  /** Milliseconds before the answer's headers. */
  latencyMs?: number;
  /** Streams: milliseconds between the headers and the first chunk. */
  firstChunkMs?: number;
  /** Streams: content chunks (default 3). Also the default completion_tokens. */
  chunks?: number;
  /** Streams: milliseconds between content chunks (default 0: all at once). */
  chunkIntervalMs?: number;
  /** Reply text; streams split it over the chunks. Default 'tok ' × chunks. */
  content?: string;
  /**
   * Usage reported (default prompt 10, completion = chunks). The cache and reasoning counts are
   * reported by the provider wires that have them (Anthropic cache read/creation, Gemini cached
   * content and thoughts, OpenAI prompt_tokens_details); `prompt_tokens` includes the cached ones.
   */
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    cached_tokens?: number;
    cache_creation_tokens?: number;
    reasoning_tokens?: number;
  };
  /** A canned failure (401 invalid key, 429 with Retry-After, 429 quota, 500). */
  fail?: MockFailure;
  /**
   * With `fail` or `status`: only every Nth call of the key fails (2 = half the calls), the others
   * answer normally — a flaky provider.
   */
  failEvery?: number;
  /** Any status: with `errorBody` (JSON) answers exactly that. Overrides `fail`. */
  status?: number;
  errorBody?: unknown;
  /** Retry-After seconds on 429 answers (default 1). */
  retryAfterSeconds?: number;
  /** Streams: cut the connection after this many content chunks (no [DONE], no usage). */
  breakAfterChunks?: number;
  /** GET /v1/models ids. */
  models?: string[];
  /** Balance every balance endpoint reports (provider currency, default 100). */
  balance?: number;
  /**
   * Output tokens the answer holds (one per chunk, `tok ` each) and reports as completion_tokens:
   * a number writes that many whatever the request's output ceiling says (an upstream that ignores
   * it); `'ceiling'` writes exactly the ceiling the request carried (max_completion_tokens,
   * max_tokens, max_output_tokens, Gemini's maxOutputTokens, Ollama's num_predict), an honest
   * upstream that writes until it may not.
   */
  writes?: number | 'ceiling';
  /**
   * Headers added over the answer's own (success, stream or failure; `content-type` included): a
   * careless provider echoing the caller's key in a header.
   */
  headers?: Record<string, string>;
  /**
   * Chat streams (OpenAI wire): after the content chunks, this JSON as a `data:` event, then the
   * stream ends (no finish, no usage, no [DONE]): a provider failing mid-answer.
   */
  streamError?: unknown;
  /**
   * Anthropic and Gemini wires: when the request offers tools and its last turn is the user's
   * (not a tool's result), the model calls this one instead of answering text.
   */
  toolCall?: { name: string; arguments: Record<string, unknown> };
}

/** OpenAI's 400 for a prompt past the model's context window (a model fallback's trigger). */
export const CONTEXT_LENGTH_EXCEEDED: MockBehavior = {
  status: 400,
  errorBody: {
    error: {
      message:
        "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.",
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  },
};
