/**
 * Cohere's v2 API in the mock: POST /v2/chat (JSON, or typed SSE events with `stream: true`:
 * Cohere does not stream by default), POST /v2/rerank, POST /v2/embed. Errors are
 * `{"id": ..., "message": ...}`.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, WHOLE_SSE_FRAMES, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const event = (type: string, data: object) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

const ERROR_ID = '6a6b1b5c-0d39-4f3c-8c1a-1d7f2f1b3c4d';

function usage(behavior: MockBehavior) {
  const u = usageOf(behavior);
  const counts = { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens };
  const cached = behavior.usage?.cached_tokens;
  return { billed_units: counts, tokens: counts, ...(cached ? { cached_tokens: cached } : {}) };
}

function chat(call: WireCall): void | Promise<void> {
  const { behavior, res, id } = call;
  const messageId = `mock-${id}`;
  if (call.body['stream'] !== true) {
    return sendJson(res, 200, {
      id: messageId,
      finish_reason: 'COMPLETE',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: pieces(behavior).join('') }],
      },
      usage: usage(behavior),
    });
  }
  const head = [
    event('message-start', {
      id: messageId,
      delta: {
        message: { role: 'assistant', content: [], tool_plan: '', tool_calls: [], citations: [] },
      },
    }),
    event('content-start', {
      index: 0,
      delta: { message: { content: { type: 'text', text: '' } } },
    }),
  ];
  const frames = pieces(behavior).map((text) =>
    event('content-delta', { index: 0, delta: { message: { content: { text } } } }),
  );
  const tail = [
    event('content-end', { index: 0 }),
    event('message-end', {
      id: messageId,
      delta: { finish_reason: 'COMPLETE', usage: usage(behavior) },
    }),
  ];
  return writeStream(res, behavior, head, frames, tail, WHOLE_SSE_FRAMES);
}

/** Documents scored by how many of the query's words they hold, best first, `top_n` of them. */
function rerank(call: WireCall): void {
  const query = typeof call.body['query'] === 'string' ? call.body['query'] : '';
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const documents = Array.isArray(call.body['documents']) ? call.body['documents'] : [];
  const scored = documents.map((document, index) => {
    const text = typeof document === 'string' ? document : JSON.stringify(document);
    const hits = words.filter((word) => text.toLowerCase().includes(word)).length;
    return { index, relevance_score: (hits + 1) / (words.length + 2) };
  });
  scored.sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
  const topN = typeof call.body['top_n'] === 'number' ? call.body['top_n'] : scored.length;
  sendJson(call.res, 200, {
    results: scored.slice(0, topN),
    id: `mock-${call.id}`,
    // One search unit is a query over up to 100 documents.
    meta: {
      api_version: { version: '2' },
      billed_units: { search_units: Math.max(1, Math.ceil(documents.length / 100)) },
    },
  });
}

function embed(call: WireCall): void {
  const texts = Array.isArray(call.body['texts']) ? call.body['texts'] : [];
  sendJson(call.res, 200, {
    id: `mock-${call.id}`,
    embeddings: { float: texts.map(() => [0.016296387, -0.008354187, -0.04699707]) },
    texts,
    meta: {
      api_version: { version: '2' },
      billed_units: { input_tokens: usageOf(call.behavior).prompt_tokens },
    },
    response_type: 'embeddings_by_type',
  });
}

export const COHERE_WIRE: ProviderWire = {
  name: 'cohere',
  matches: (method, path) =>
    method === 'POST' &&
    (path.endsWith('/v2/chat') || path.endsWith('/v2/rerank') || path.endsWith('/v2/embed')),
  answer(call) {
    if (call.path.endsWith('/v2/rerank')) return rerank(call);
    if (call.path.endsWith('/v2/embed')) return embed(call);
    return chat(call);
  },
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return { status: 401, body: { id: ERROR_ID, message: 'invalid api token' } };
      case 'rate_limit':
        return {
          status: 429,
          body: {
            id: ERROR_ID,
            message:
              'You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the Trial key for free or upgrade to a Production key with higher rate limits.',
          },
        };
      case 'quota_exceeded':
        // Cohere asks for payment with 402, not with a 429 like OpenAI.
        return {
          status: 402,
          body: {
            id: ERROR_ID,
            message:
              'Please add or update your payment method at https://dashboard.cohere.com/billing',
          },
        };
      case 'server_error':
        return { status: 500, body: { id: ERROR_ID, message: 'internal server error' } };
      default:
        return { status, body: { id: ERROR_ID, message: `mock status ${status}` } };
    }
  },
};
