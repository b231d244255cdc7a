/**
 * Ollama's native API in the mock: POST /api/chat (one JSON object, or NDJSON lines when `stream`
 * is true or absent: Ollama streams by default), POST /api/embed, GET /api/tags. Errors are
 * `{"error": "..."}`; a model missing from `behavior.models` gets Ollama's 404.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, writeStream, type StreamFormat } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const NDJSON_FORMAT: StreamFormat = {
  headers: { 'content-type': 'application/x-ndjson' },
  frame: (text) => `${text}\n`,
};

const DEFAULT_OLLAMA_MODELS = ['llama3.2:latest'];

/** The timing fields Ollama puts on its final object (nanoseconds; fixed, they are not read). */
function finalStats(behavior: MockBehavior) {
  const usage = usageOf(behavior);
  return {
    done_reason: 'stop',
    done: true,
    total_duration: 5_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: usage.prompt_tokens,
    prompt_eval_duration: 1_000_000,
    eval_count: usage.completion_tokens,
    eval_duration: 3_000_000,
  };
}

function chat(call: WireCall): void | Promise<void> {
  const { behavior, res, model } = call;
  const createdAt = new Date().toISOString();
  if (call.body['stream'] === false) {
    return sendJson(res, 200, {
      model,
      created_at: createdAt,
      message: { role: 'assistant', content: pieces(behavior).join('') },
      ...finalStats(behavior),
    });
  }
  const line = (content: string, done: object = { done: false }) =>
    JSON.stringify({
      model,
      created_at: createdAt,
      message: { role: 'assistant', content },
      ...done,
    });
  const frames = pieces(behavior).map((text) => line(text));
  return writeStream(res, behavior, [], frames, [line('', finalStats(behavior))], NDJSON_FORMAT);
}

function embed(call: WireCall): void {
  const input = call.body['input'];
  const inputs = Array.isArray(input) ? input : [input];
  sendJson(call.res, 200, {
    model: call.model,
    embeddings: inputs.map(() => [0.010071029, -0.0017594862, 0.05007221, 0.04692972]),
    total_duration: 14_143_917,
    load_duration: 1_019_500,
    prompt_eval_count: usageOf(call.behavior).prompt_tokens,
  });
}

function tags(call: WireCall): void {
  const names = call.behavior.models ?? DEFAULT_OLLAMA_MODELS;
  sendJson(call.res, 200, {
    models: names.map((name) => ({
      name,
      model: name,
      modified_at: '2024-10-01T00:00:00Z',
      size: 2_019_393_189,
      digest: 'a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72',
      details: { format: 'gguf', family: 'llama', parameter_size: '3.2B' },
    })),
  });
}

/** Ollama answers 404 for a model it has not pulled (only checked when `models` is set). */
function knownModel(call: WireCall): boolean {
  const models = call.behavior.models;
  if (!models || models.includes(call.model) || models.includes(`${call.model}:latest`)) {
    return true;
  }
  sendJson(call.res, 404, { error: `model '${call.model}' not found` });
  return false;
}

export const OLLAMA_WIRE: ProviderWire = {
  name: 'ollama',
  matches: (method, path) =>
    (method === 'POST' && (path.endsWith('/api/chat') || path.endsWith('/api/embed'))) ||
    (method === 'GET' && path.endsWith('/api/tags')),
  answer(call) {
    if (call.method === 'GET') return tags(call);
    if (!knownModel(call)) return;
    return call.path.endsWith('/api/embed') ? embed(call) : chat(call);
  },
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        // Ollama has no keys; a key-checking proxy in front of it answers this.
        return { status: 401, body: { error: 'unauthorized' } };
      case 'rate_limit':
        return { status: 429, body: { error: 'too many requests, please retry later' } };
      case 'quota_exceeded':
        return { status: 429, body: { error: 'You exceeded your current quota' } };
      case 'server_error':
        return {
          status: 500,
          body: { error: 'llama runner process has terminated: exit status 2' },
        };
      default:
        return { status, body: { error: `mock status ${status}` } };
    }
  },
};
