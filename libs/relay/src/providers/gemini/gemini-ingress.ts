/**
 * Clients speaking Gemini (POST /v1beta/models/{model}:generateContent and
 * :streamGenerateContent, the route giving the model and streaming) in front of any upstream.
 */
import type { IngressCodec } from '../ingress-codec';
import { googleStatus } from './gemini-errors';
import { GeminiStreamEncoder, openAiToGemini } from './gemini-ingress-answer';
import { geminiToOpenAi } from './gemini-ingress-request';

export const GEMINI_INGRESS: IngressCodec = {
  name: 'gemini',
  toOpenAi: geminiToOpenAi,
  fromOpenAi: openAiToGemini,
  stream: (ctx) => new GeminiStreamEncoder(ctx),
  // Google's shape: the numeric code, the message, the canonical status name (type/code unused).
  errorBody: (status, message) => ({
    error: { code: status, message, status: googleStatus(status) },
  }),
};
