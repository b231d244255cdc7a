/**
 * The OpenAI wire seen as an adaptor, for the converting path only: an Anthropic or Gemini client
 * relayed to an OpenAI-wire channel, where the body is built from the hub instead of passed
 * through. (OpenAI clients of OpenAI-wire channels never come here: their bytes pass untouched.)
 */
import { withFields } from '@tollgate/domain';
import { upstreamErrorInfo } from '../errors/relay-error';
import { reportsStreamUsage, type RelayEndpoint, upstreamTarget } from '../openai/openai-wire';
import type { JsonObject } from '../openai/request-body';
import { usageFromObject } from '../openai/usage-reader';
import type { ChatAdaptor } from './chat-adaptor';
import type { StreamEncoder } from './ingress-codec';
import { isObject } from './json-parts';
import { ChunkConverter } from './openai-chunks';

class OpenAiChunkReader extends ChunkConverter {
  event(data: JsonObject): JsonObject[] {
    if (isObject(data.error)) {
      const info = upstreamErrorInfo(JSON.stringify(data));
      this.seenFailure = { status: 500, info };
      return [];
    }
    const usage = usageFromObject(data.usage);
    if (usage) this.seenUsage = usage;
    // The usage-only chunk comes back from end(), after everything else, like every adaptor's.
    if (Array.isArray(data.choices) && data.choices.length === 0) return [];
    return [withFields(data, { id: this.ctx.id, model: this.ctx.model })];
  }
}

export const OPENAI_WIRE_ADAPTOR: ChatAdaptor = {
  name: 'openai',
  framing: 'sse',
  endpoints: new Set<RelayEndpoint>(['chat']),
  request(endpoint, openai, channel, upstreamModel, stream) {
    const body: JsonObject = withFields(openai, { model: upstreamModel });
    if (stream) {
      body.stream = true;
      if (reportsStreamUsage(channel.type)) body.stream_options = { include_usage: true };
      else delete body.stream_options;
    } else {
      delete body.stream;
      delete body.stream_options;
    }
    const target = upstreamTarget(channel, endpoint, upstreamModel, 'application/json', stream);
    return withFields(target, { method: 'POST', body: Buffer.from(JSON.stringify(body)) });
  },
  response(_endpoint, provider, ctx) {
    const usage = usageFromObject(provider.usage);
    return { ok: true, body: withFields(provider, { id: ctx.id, model: ctx.model }), usage };
  },
  stream: (ctx) => new OpenAiChunkReader(ctx),
  error: (_status, text) => upstreamErrorInfo(text),
};

/**
 * OpenAI chunks to an OpenAI client (a converted upstream's answer): one `data:` line each, the
 * usage chunk only when the client asked for it (`stream_options.include_usage`), then [DONE].
 */
export function openAiStreamEncoder(includeUsage: boolean): StreamEncoder {
  return {
    chunk(openai) {
      const usageOnly = Array.isArray(openai.choices) && openai.choices.length === 0;
      if (usageOnly && !includeUsage) return '';
      return `data: ${JSON.stringify(openai)}\n\n`;
    },
    end: () => 'data: [DONE]\n\n',
  };
}
