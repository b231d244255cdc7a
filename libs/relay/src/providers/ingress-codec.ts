/**
 * The contract of a client protocol other than OpenAI's (Anthropic Messages, Gemini
 * generateContent): its request as an OpenAI chat body (the hub every adaptor reads), and OpenAI
 * answers, chunks and errors back in the client's shapes. Pure, like the adaptors.
 */
import type { JsonObject } from '../openai/request-body';
import type { UpstreamUsage } from '../openai/usage-reader';
import type { ConvertContext } from './chat-adaptor';

/** What the route knows besides the body (Gemini puts the model and streaming in the path). */
export interface IngressRoute {
  readonly model?: string;
  readonly stream?: boolean;
}

/** Streams an answer to the client: OpenAI chunk objects in, the client's SSE text out. */
export interface StreamEncoder {
  /** SSE text for one OpenAI chunk (maybe '' when it carries nothing the client's wire shows). */
  chunk(openai: JsonObject): string;
  /** The closing events, with the usage the upstream reported (or the local count). */
  end(usage: UpstreamUsage | undefined): string;
}

export interface IngressCodec {
  readonly name: string;
  /** The client's body as an OpenAI chat body; a string says why the body is invalid. */
  toOpenAi(body: JsonObject, route: IngressRoute): JsonObject | string;
  /** An OpenAI chat.completion as the client's answer. */
  fromOpenAi(openai: JsonObject, usage: UpstreamUsage | undefined, ctx: ConvertContext): JsonObject;
  stream(ctx: ConvertContext): StreamEncoder;
  /** The client's error body for a failed call (the HTTP status is the caller's). */
  errorBody(status: number, message: string, type: string, code: string | null): JsonObject;
}
