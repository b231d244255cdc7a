/**
 * OpenAI embeddings as Cohere's /v2/embed. Cohere's v3+ embed models require an `input_type`;
 * OpenAI has none, so the client may send Cohere's as an extra field and the default is
 * `search_document` (what an OpenAI embeddings call usually indexes). Floats only.
 */
import type { JsonObject } from '../../openai/request-body';
import type { ConvertContext, ConvertedAnswer } from '../chat-adaptor';
import { count, isObject } from '../json-parts';

export function cohereEmbedBody(openai: JsonObject, model: string): JsonObject {
  const input = openai.input;
  const texts = (Array.isArray(input) ? (input as unknown[]) : [input]).map((t) =>
    typeof t === 'string' ? t : JSON.stringify(t),
  );
  const body: JsonObject = {
    model,
    texts,
    input_type: typeof openai.input_type === 'string' ? openai.input_type : 'search_document',
    embedding_types: ['float'],
  };
  if (typeof openai.dimensions === 'number') body.output_dimension = openai.dimensions;
  return body;
}

export function cohereEmbedAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const embeddings = isObject(provider.embeddings)
    ? provider.embeddings.float
    : provider.embeddings;
  const vectors = Array.isArray(embeddings) ? (embeddings as unknown[]) : [];
  const meta = isObject(provider.meta) ? provider.meta : {};
  const tokens = isObject(meta.tokens) ? meta.tokens : {};
  const billed = isObject(meta.billed_units) ? meta.billed_units : {};
  const prompt = count(tokens.input_tokens) || count(billed.input_tokens);
  return {
    ok: true,
    body: {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: ctx.model,
      usage: { prompt_tokens: prompt, total_tokens: prompt },
    },
    usage: prompt > 0 ? { promptTokens: prompt, completionTokens: 0, cachedTokens: 0 } : undefined,
  };
}
