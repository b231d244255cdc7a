/**
 * Reading a Vertex answer when only the answer says which publisher wrote it. The gateway asks
 * one adaptor per channel type, and response() / stream() / error() get neither the channel nor
 * the upstream model (ConvertContext.model is the client's name, which a model mapping may have
 * changed), so the combined Vertex adaptor tells the two wires apart by their documented shapes:
 * Anthropic objects carry a string `type` (and SSE event names), Google's never do.
 */
import type { ConvertContext, ConvertedFailure, StreamConverter } from '../chat-adaptor';
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import { AnthropicStreamConverter } from '../anthropic/anthropic-stream';
import { GeminiStreamConverter } from '../gemini/gemini-stream';
import { isObject } from '../json-parts';

/** A Messages answer (`type: "message"`) rather than a GenerateContentResponse. */
export function isAnthropicAnswer(provider: JsonObject): boolean {
  return provider.type === 'message' || (Array.isArray(provider.content) && !provider.candidates);
}

/** Anthropic's `{"type":"error","error":{…}}`; Google's errors have no top-level type. */
export function isAnthropicError(text: string): boolean {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) && parsed.type === 'error';
  } catch {
    return false;
  }
}

/** Picks the Anthropic or Gemini converter on the stream's first event. */
export class VertexStreamConverter implements StreamConverter {
  private inner: StreamConverter | undefined;

  constructor(private readonly ctx: ConvertContext) {}

  event(data: JsonObject, name?: string): JsonObject[] {
    this.inner ??=
      name !== undefined || typeof data.type === 'string'
        ? new AnthropicStreamConverter(this.ctx)
        : new GeminiStreamConverter(this.ctx);
    return this.inner.event(data, name);
  }

  end(): JsonObject[] {
    return this.inner?.end() ?? [];
  }

  usage(): UpstreamUsage | undefined {
    return this.inner?.usage();
  }

  failure(): ConvertedFailure | undefined {
    return this.inner?.failure();
  }
}
