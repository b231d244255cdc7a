/**
 * The contract every converting provider adaptor fulfils. The OpenAI chat wire is the hub: a
 * client's request (OpenAI, or an ingress codec's conversion of an Anthropic or Gemini request) is
 * an OpenAI chat body; the adaptor turns it into the provider's request, and the provider's answer,
 * stream events, usage and errors back into OpenAI shapes. Everything here is pure: no sockets, no
 * clocks (the gateway passes `now`), no randomness.
 */
import type { UpstreamErrorInfo } from '../errors/relay-error';
import type { RelayEndpoint, UpstreamTarget, WireChannel } from '../openai/openai-wire';
import type { JsonObject } from '../openai/request-body';
import type { UpstreamUsage } from '../openai/usage-reader';
import type { ProviderSettings } from './provider-settings';

/** How a provider frames a streamed answer (the gateway splits the bytes, the adaptor reads events). */
export type StreamFraming = 'sse' | 'ndjson' | 'aws-eventstream';

/** What an answer's conversion needs besides the provider's body. */
export interface ConvertContext {
  /** The OpenAI id of the answer, e.g. `chatcmpl-<request id>`. */
  readonly id: string;
  /** The model name the client asked for (shown in the converted answer). */
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
  /**
   * Text the request prefilled as the assistant's turn (Claude's JSON mode `{`): the upstream
   * answers only what follows, so the converted answer's text starts with it again.
   */
  readonly answerPrefix?: string;
}

/** A provider failure found in a 2xx answer (e.g. Gemini's safety block). */
export interface ConvertedFailure {
  readonly status: number;
  readonly info: UpstreamErrorInfo;
}

export type ConvertedAnswer =
  | { readonly ok: true; readonly body: JsonObject; readonly usage: UpstreamUsage | undefined }
  | { readonly ok: false; readonly failure: ConvertedFailure };

/** The request as it goes upstream. */
export interface ProviderRequest extends UpstreamTarget {
  readonly method: 'POST' | 'GET';
  readonly body: Buffer;
  /** The model the provider is sent when it is not `upstreamModel` (Claude's `-thinking` cut). */
  readonly upstreamModel?: string;
  /** Prefilled assistant text the answer continues: ConvertContext.answerPrefix of its answer. */
  readonly answerPrefix?: string;
}

/** Per-call data besides the body: what the relay's options and the client ask of the adaptor. */
export interface RequestContext {
  /** new-api's provider settings; absent = the adaptor's own behaviour (unit specs, channel tests). */
  readonly settings?: ProviderSettings;
  /** The model the client named, before the channel's mapping (Claude's per-model headers). */
  readonly clientModel?: string;
  /**
   * `global.pass_through_request_enabled`: these bytes go instead of the converted body (the
   * gateway puts them in place after request()); an adaptor that signs its body in request()
   * signs these.
   */
  readonly passThroughBody?: Buffer;
}

/** One streamed answer's conversion, fed event by event. */
export interface StreamConverter {
  /**
   * One framed upstream event: SSE gives its `event:` name and the parsed `data:` JSON; NDJSON
   * gives one line's object (no name). Returns the OpenAI chunk objects it produces (maybe none).
   */
  event(data: JsonObject, name?: string): JsonObject[];
  /**
   * After the upstream ended: what is still owed, ending with a chunk `{choices: [], usage}` when
   * usage was reported (the OpenAI ingress forwards it only to a client that asked for it).
   */
  end(): JsonObject[];
  /** Usage reported so far; undefined when the provider reported none. */
  usage(): UpstreamUsage | undefined;
  /** An error the provider sent inside the stream (Anthropic's `error` event), if any. */
  failure(): ConvertedFailure | undefined;
}

export interface ChatAdaptor {
  /** For logs and docs, e.g. 'anthropic'. */
  readonly name: string;
  readonly framing: StreamFraming;
  /** The relay endpoints this adaptor converts (others answer a clear "unsupported" error). */
  readonly endpoints: ReadonlySet<RelayEndpoint>;
  /**
   * The upstream request for an OpenAI body of `endpoint` (model already mapped to
   * `upstreamModel`; `stream` as the client asked). `now` is for signatures (SigV4, TC3).
   */
  request(
    endpoint: RelayEndpoint,
    openai: JsonObject,
    channel: WireChannel,
    upstreamModel: string,
    stream: boolean,
    now: Date,
    ctx?: RequestContext,
  ): ProviderRequest;
  /** When set, the gateway awaits it on request()'s result before sending (async SigV4 signing). */
  authorize?(req: ProviderRequest, channel: WireChannel, now: Date): Promise<ProviderRequest>;
  /** The provider's non-stream JSON answer as the OpenAI answer of `endpoint`, with usage. */
  response(endpoint: RelayEndpoint, provider: JsonObject, ctx: ConvertContext): ConvertedAnswer;
  /** A converter for one streamed chat answer. */
  stream(ctx: ConvertContext): StreamConverter;
  /** A non-2xx answer's body (text, maybe not JSON) as the OpenAI error fields. */
  error(status: number, text: string): UpstreamErrorInfo;
  /**
   * The output ceiling the provider's settings give a request that names none (Claude's
   * `claude.default_max_tokens`, as new-api applies it): the relay sends the lesser of it and the
   * ceiling it reserved for.
   */
  defaultCeiling?(upstreamModel: string, ctx?: RequestContext): number | undefined;
}
