/**
 * The relay's /v1/rerank body (Jina/Cohere shape) as Cohere's /v2/rerank, and the answer back.
 *
 * Usage: Cohere bills rerank in search units (one query over up to 100 documents), not tokens.
 * The relay counts `meta.tokens.input_tokens` (or `meta.billed_units.input_tokens`) when Cohere
 * reports them; otherwise each search unit is reported as one prompt token, so a rerank model is
 * priced per search unit (its ratio set to the price of one search).
 *
 * v2 takes documents as strings only and has no `return_documents`: object documents are sent as
 * their `text` (or their JSON), and the answer carries a document only when Cohere returns one.
 */
import type { JsonObject } from '../../openai/request-body';
import type { UpstreamUsage } from '../../openai/usage-reader';
import type { ConvertContext, ConvertedAnswer } from '../chat-adaptor';
import { count, isObject } from '../json-parts';

function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  if (isObject(document) && typeof document.text === 'string') return document.text;
  return JSON.stringify(document);
}

export function cohereRerankBody(openai: JsonObject, model: string): JsonObject {
  const documents = Array.isArray(openai.documents) ? (openai.documents as unknown[]) : [];
  const body: JsonObject = {
    model,
    query: typeof openai.query === 'string' ? openai.query : '',
    documents: documents.map(documentText),
  };
  if (typeof openai.top_n === 'number' && openai.top_n > 0) body.top_n = openai.top_n;
  if (typeof openai.max_tokens_per_doc === 'number') {
    body.max_tokens_per_doc = openai.max_tokens_per_doc;
  }
  return body;
}

function rerankUsage(meta: unknown): UpstreamUsage | undefined {
  if (!isObject(meta)) return undefined;
  const tokens = isObject(meta.tokens) ? meta.tokens : {};
  const billed = isObject(meta.billed_units) ? meta.billed_units : {};
  const prompt =
    count(tokens.input_tokens) || count(billed.input_tokens) || count(billed.search_units);
  return prompt > 0 ? { promptTokens: prompt, completionTokens: 0, cachedTokens: 0 } : undefined;
}

export function cohereRerankAnswer(provider: JsonObject, ctx: ConvertContext): ConvertedAnswer {
  const results = Array.isArray(provider.results) ? (provider.results as unknown[]) : [];
  const usage = rerankUsage(provider.meta);
  const prompt = usage?.promptTokens ?? 0;
  return {
    ok: true,
    body: {
      model: ctx.model,
      results: results.filter(isObject).map((r) => {
        const out: JsonObject = { index: r.index, relevance_score: r.relevance_score };
        if (isObject(r.document)) out.document = r.document;
        return out;
      }),
      usage: { prompt_tokens: prompt, total_tokens: prompt },
    },
    usage,
  };
}
