/**
 * Google Gemini's API in the mock: POST /v1beta/models/{model}:generateContent,
 * :streamGenerateContent (SSE with `alt=sse`, else Google's default JSON array),
 * :batchEmbedContents, :embedContent, and GET /v1beta/models. The model comes from the path.
 * Errors are Google's `{"error":{"code","message","status"}}`.
 */
import type { MockBehavior } from '../mock-behavior';
import {
  chunkCount,
  pieces,
  sendJson,
  SSE_HEADERS,
  writeStream,
  type StreamFormat,
} from '../mock-kit';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';
import { answerGeminiFunctionCall, toolCallOf } from './tool-calls';

/** Google separates alt=sse events with CRLF CRLF. */
const GEMINI_SSE: StreamFormat = { headers: SSE_HEADERS, frame: (text) => `data: ${text}\r\n\r\n` };

const DEFAULT_GEMINI_MODELS = ['gemini-2.0-flash', 'gemini-1.5-pro'];

const METHODS = [
  ':generateContent',
  ':streamGenerateContent',
  ':batchEmbedContents',
  ':embedContent',
];

/**
 * usageMetadata for a behaviour. `completion_tokens` keeps its OpenAI meaning (thoughts included):
 * candidatesTokenCount is what is left after the thoughts; by default chunks + reasoning.
 */
function usageMetadata(behavior: MockBehavior) {
  const u = behavior.usage ?? {};
  const prompt = u.prompt_tokens ?? 10;
  const thoughts = u.reasoning_tokens ?? 0;
  const completion = u.completion_tokens ?? chunkCount(behavior) + thoughts;
  const candidates = Math.max(0, completion - thoughts);
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: candidates,
    totalTokenCount: prompt + candidates + thoughts,
    ...(u.cached_tokens ? { cachedContentTokenCount: u.cached_tokens } : {}),
    ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
  };
}

function response(call: WireCall, text: string, finished: boolean) {
  return {
    candidates: [
      {
        content: { parts: [{ text }], role: 'model' },
        ...(finished ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    ...(finished ? { usageMetadata: usageMetadata(call.behavior) } : {}),
    modelVersion: call.model,
    responseId: `mock-gemini-${call.id}`,
  };
}

/** A generateContent / streamGenerateContent answer (Vertex serves the same bodies). */
export function geminiGenerate(call: WireCall): void | Promise<void> {
  const { behavior, res } = call;
  const tool = toolCallOf(call);
  if (tool) return answerGeminiFunctionCall(call, tool, usageMetadata(behavior));
  if (call.path.endsWith(':generateContent')) {
    return sendJson(res, 200, response(call, pieces(behavior).join(''), true));
  }
  const events = pieces(behavior).map((text) => response(call, text, false));
  // The finish and the cumulative usage close the stream (a broken stream never gets them).
  const last = response(call, '', true);
  if (call.query['alt'] !== 'sse') return sendJson(res, 200, [...events, last]);
  const frames = events.map((e) => JSON.stringify(e));
  return writeStream(res, behavior, [], frames, [JSON.stringify(last)], GEMINI_SSE);
}

const VECTOR = [0.0134, -0.0221, 0.0467, 0.0089];

function embed(call: WireCall): void {
  if (call.path.endsWith(':embedContent')) {
    return sendJson(call.res, 200, { embedding: { values: VECTOR } });
  }
  const requests = Array.isArray(call.body['requests']) ? call.body['requests'] : [];
  sendJson(call.res, 200, { embeddings: requests.map(() => ({ values: VECTOR })) });
}

function models(call: WireCall): void {
  const ids = call.behavior.models ?? DEFAULT_GEMINI_MODELS;
  sendJson(call.res, 200, {
    models: ids.map((id) => ({
      name: `models/${id}`,
      version: '001',
      displayName: id,
      description: `Mock ${id}`,
      inputTokenLimit: 1_048_576,
      outputTokenLimit: 8192,
      supportedGenerationMethods: id.includes('embedding')
        ? ['embedContent', 'batchEmbedContents']
        : ['generateContent', 'countTokens'],
    })),
  });
}

function googleError(code: number, message: string, status: string): WireFailure {
  return { status: code, body: { error: { code, message, status } } };
}

export const GEMINI_WIRE: ProviderWire = {
  name: 'gemini',
  matches: (method, path) =>
    (method === 'POST' && path.includes('/models/') && METHODS.some((m) => path.endsWith(m))) ||
    (method === 'GET' && path.endsWith('/v1beta/models')),
  modelOf(path) {
    const match = /\/models\/([^/:]+):/.exec(path);
    return match ? decodeURIComponent(match[1]!) : undefined;
  },
  answer(call) {
    if (call.method === 'GET') return models(call);
    return /:(stream)?generateContent$/i.test(call.path) ? geminiGenerate(call) : embed(call);
  },
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        // Google answers a wrong key with 400, not 401.
        return googleError(
          400,
          'API key not valid. Please pass a valid API key.',
          'INVALID_ARGUMENT',
        );
      case 'rate_limit':
        return googleError(
          429,
          'Resource has been exhausted (e.g. check quota).',
          'RESOURCE_EXHAUSTED',
        );
      case 'quota_exceeded':
        return googleError(
          429,
          'You exceeded your current quota, please check your plan and billing details.',
          'RESOURCE_EXHAUSTED',
        );
      case 'server_error':
        return googleError(500, 'An internal error has occurred. Please retry.', 'INTERNAL');
      default:
        return googleError(status, `mock status ${status}`, STATUS_NAMES[status] ?? 'UNKNOWN');
    }
  },
};

const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};
