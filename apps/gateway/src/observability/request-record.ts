/**
 * What one HTTP request left behind, filled while it runs and handed to the observers (metrics,
 * the request log line) once its response closed. One object per request, no per-field allocation.
 */
export interface RequestRecord {
  readonly method: string;
  /** The route template (`/api/user/:id`, `/v1/chat/completions`), `unmatched` when none: never the raw path. */
  readonly route: string;
  /**
   * The inbound X-Request-Id when well-formed, else one made here: returned as X-Request-Id, on
   * the log line, and the correlation id of every event the request appends.
   */
  readonly requestId: string;
  /**
   * The gateway's own unique id: `requestId` when made here, a fresh one when the client sent
   * its own (a client may reuse an id; receipts, reservations and task ids must not collide).
   */
  readonly ownId: string;
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
  /** Set when the response closed: its status (499 when the client left before an answer). */
  status: number;
  durationMs: number;
  /** The signed-in console user or the relay key's owner; 0 when anonymous. */
  userId: number;
  /** Set by the relay for /v1, /pg and task calls. */
  relay: RelayTrace | undefined;
}

/** The relay's part of a request record (ids and counts only: no key, prompt or completion). */
export interface RelayTrace {
  tokenId: number;
  /**
   * The model the client asked for, or the fallback model last tried (the one billed when it
   * answered); '' before the body was read.
   */
  model: string;
  /** The channel that answered or failed last; 0 when none was tried. */
  channelId: number;
  /** Attempts beyond the first. */
  retries: number;
  /** Time to the first streamed byte; null when not streamed or never reached. */
  ttftMs: number | null;
  promptTokens: number;
  completionTokens: number;
  /** Quota units charged (0 when nothing was billed). */
  quota: number;
  /** The upstream wrote more output than the ceiling it was sent (counted per channel). */
  ceilingIgnored: boolean;
  /** How the channels were picked (RoutingStrategy); undefined when none was picked. */
  routing: 'weighted' | 'latency' | 'least-busy' | undefined;
  /** Why the call moved on to a fallback model; undefined when it did not. */
  fallback: 'failed' | 'context_window' | 'content_filter' | undefined;
}

export function newRelayTrace(tokenId: number): RelayTrace {
  return {
    tokenId,
    model: '',
    channelId: 0,
    retries: 0,
    ttftMs: null,
    promptTokens: 0,
    completionTokens: 0,
    quota: 0,
    ceilingIgnored: false,
    routing: undefined,
    fallback: undefined,
  };
}

/** Called once per request after its response closed; must not throw nor block. */
export interface RequestObserver {
  requestDone(record: RequestRecord): void;
}

/**
 * Per upstream attempt (a request may make several): how long the channel took to answer its
 * headers or fail. Separate from the record because one request spans several channels.
 */
export interface UpstreamObserver {
  upstreamDone(channelId: number, seconds: number): void;
}
