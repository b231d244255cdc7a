/** The shapes one relay request takes on its way through the pipeline. */
import { affordableCeiling, type PriceQuote } from '@tollgate/domain';
import type {
  AttemptFailure,
  ConvertContext,
  FallbackReason,
  IngressKind,
  JsonObject,
  RelayEndpoint,
  RequestFacts,
  UpstreamUsage,
} from '@tollgate/relay';
import type { RelayTrace } from '../observability/request-record';
import type { Lang } from '../shared/i18n/messages';
import type { ClientWire } from './client-wire';
import type { Caller } from './relay-admission';
import type { LimitReason, Reservation, RoutedChannel } from './relay-ports';
import type { RelaySettings } from './relay-settings';

/** One relay request as the routes hand it over. */
export interface RelayCall {
  readonly endpoint: RelayEndpoint;
  /** The route, e.g. /v1/chat/completions (the receipt's endpoint). */
  readonly route: string;
  readonly raw: Buffer;
  readonly contentType: string;
  readonly ip: string;
  readonly lang: Lang;
  /** The gateway's own unique id: reservation, receipt and the id in error messages. */
  readonly requestId: string;
  /** The request id of the HTTP request (the client's X-Request-Id when it sent one): on events. */
  readonly correlationId: string;
  /** What the request log line and the metrics read when the response closed. */
  readonly trace: RelayTrace;
  readonly startedAt: number;
  readonly caller: Caller;
  /** /v1/engines/:model/embeddings, Gemini's /v1beta/models/{model}:… */
  readonly modelFromPath?: string;
  /** The playground sends its group in the body; removed before the body goes upstream. */
  readonly playground?: boolean;
  /** The client's protocol when it is not OpenAI's (POST /v1/messages, /v1beta/models/…). */
  readonly ingress?: IngressKind;
  /** Gemini says "stream" in the path (:streamGenerateContent). */
  readonly streamFromPath?: boolean;
  /**
   * Gemini's stream without `alt=sse` in the query: the client reads one JSON array sent element
   * by element, not SSE (the upstream is asked for SSE all the same).
   */
  readonly arrayStream?: boolean;
  /** Client headers a native upstream must see (anthropic-version, anthropic-beta). */
  readonly clientHeaders?: Readonly<Record<string, string | undefined>>;
}

/** The failure the client is told about when no attempt answered. */
export interface LastFailure {
  readonly failure: AttemptFailure;
  readonly channel: RoutedChannel;
}

export type AttemptResult =
  | { readonly kind: 'answered' }
  | {
      readonly kind: 'failed';
      readonly failure: AttemptFailure;
      readonly retryAfterMs?: number;
      /**
       * The request asks what this channel's protocol cannot serve (a Responses request with
       * previous_response_id on a Claude channel): not the channel's failure, so it is neither
       * cooled nor counted against its failure budget, and another channel may be tried.
       */
      readonly notServedHere?: true;
    };

export interface Prepared {
  readonly call: RelayCall;
  readonly settings: RelaySettings;
  readonly facts: RequestFacts;
  /** The client's JSON body as it came (undefined for multipart). */
  readonly body: JsonObject | undefined;
  /** The request as an OpenAI chat body: what a converting adaptor reads. */
  readonly hub: JsonObject | undefined;
  /** How answers and errors are written in the client's protocol. */
  readonly client: ClientWire;
  readonly boundary: string | undefined;
  readonly group: string;
  readonly quote: PriceQuote;
  readonly promptEstimate: number;
  /** Chat and completions `n` (and best_of): every choice is written up to the ceiling. */
  readonly choices: number;
  /**
   * The output ceiling the client asked for, else the model's maximum (ModelMaxOutputTokens);
   * undefined for the endpoints that have no such field (embeddings, audio, images…).
   */
  readonly askedCeiling: number | undefined;
  readonly reservation: Reservation;
  /** The ceiling sent upstream (tokens per choice): the asked one, or what the payer can afford. */
  readonly ceiling: number | undefined;
  /** The limit that lowered the ceiling below the asked one (the receipt says so). */
  readonly loweredBy: LimitReason | undefined;
  readonly chain: number[];
  /** A fallback model is being tried: the model asked for and why it moved on. */
  readonly fallback?: { readonly requestedModel: string; readonly reason: FallbackReason };
}

/** A call ready to reserve: everything but what the reservation decides. */
export type Unreserved = Omit<Prepared, 'reservation' | 'ceiling' | 'loweredBy'>;

/** An answer an upstream gave: what charging it and writing its receipt need. */
export interface Answered {
  readonly prepared: Prepared;
  readonly channel: RoutedChannel;
  /** The model the upstream was asked for (after the channel's model mapping). */
  readonly upstreamModel: string;
  readonly usage: UpstreamUsage;
  /** The usage was counted here: the upstream reported none (or the stream was cut). */
  readonly estimated: boolean;
  /** When the first byte came (ms since the epoch), null when none did. */
  readonly firstAt: number | null;
  readonly stream: boolean;
  /** The stream was cut where its reservation ended. */
  readonly cut?: boolean;
}

/**
 * Whether the upstream's own usage shows it stayed within the ceiling it was sent: output held
 * past the reservation by our count may then go out (its tokenizer is not ours). The answer is
 * charged on that usage in full, a prompt larger than estimated included.
 */
export function honouredCeiling(p: Prepared, usage: UpstreamUsage): boolean {
  return p.ceiling !== undefined && usage.completionTokens <= p.ceiling * p.choices;
}

/**
 * The names a converted answer and a cut stream's closing events carry, and the text the request
 * prefilled (`answerPrefix`: the converted answer starts with it again).
 */
export function answerContext(p: Prepared, answerPrefix?: string): ConvertContext {
  return {
    id: `chatcmpl-${p.call.requestId}`,
    model: p.facts.model,
    created: Math.floor(p.call.startedAt / 1000),
    ...(answerPrefix !== undefined ? { answerPrefix } : {}),
  };
}

/**
 * Output tokens (all choices together) the reservation covers beside the prompt: a stream is cut
 * past them (docs/relay.md). Unbounded when the price does not grow with the output.
 */
export function outputAllowance(p: Prepared): number {
  return affordableCeiling(
    p.quote,
    p.promptEstimate,
    Number.MAX_SAFE_INTEGER,
    p.reservation.amount,
    p.settings.price.quotaPerUnit,
  );
}
