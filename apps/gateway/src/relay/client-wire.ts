/**
 * How a converted answer and every error reach the client in its own protocol: OpenAI's (the
 * default), or an ingress codec's (Anthropic Messages, Gemini).
 */
import {
  type ConvertContext,
  errorBody,
  type IngressCodec,
  ingressCodec,
  type IngressKind,
  type JsonObject,
  openAiStreamEncoder,
  type RelayError,
  type StreamEncoder,
  type UpstreamUsage,
  withRequestId,
} from '@tollgate/relay';

export interface ClientWire {
  /** The client's answer for an OpenAI chat.completion (usage as the upstream reported it). */
  whole(openai: JsonObject, usage: UpstreamUsage | undefined, ctx: ConvertContext): JsonObject;
  stream(ctx: ConvertContext): StreamEncoder;
  errorBody(error: RelayError, requestId: string): unknown;
}

/** OpenAI clients: answers are already theirs; the usage chunk only when they asked for it. */
export function openAiClient(includeUsage: boolean): ClientWire {
  return {
    whole: (openai) => openai,
    stream: () => openAiStreamEncoder(includeUsage),
    errorBody: (error, requestId) => errorBody(error, requestId),
  };
}

export const OPENAI_CLIENT: ClientWire = openAiClient(false);

export function codecClient(codec: IngressCodec): ClientWire {
  return {
    whole: (openai, usage, ctx) => codec.fromOpenAi(openai, usage, ctx),
    stream: (ctx) => codec.stream(ctx),
    errorBody: (error, requestId) =>
      codec.errorBody(
        error.status,
        withRequestId(error.message, requestId),
        error.type,
        error.code,
      ),
  };
}

/** The client's protocol as the route says, before the body is read (errors need it first). */
export function clientWireOfIngress(ingress: IngressKind | undefined): ClientWire {
  const codec = ingress ? ingressCodec(ingress) : undefined;
  return codec ? codecClient(codec) : OPENAI_CLIENT;
}
