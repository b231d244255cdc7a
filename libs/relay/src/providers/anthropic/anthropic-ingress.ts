/** Anthropic's Messages API as a client protocol (`POST /v1/messages`). */
import type { IngressCodec } from '../ingress-codec';
import { anthropicErrorBody } from './anthropic-errors';
import { openAiRequestOfAnthropic } from './anthropic-request';
import { anthropicResponseOfOpenAi } from './anthropic-response';
import { AnthropicStreamEncoder } from './anthropic-stream';

export const ANTHROPIC_INGRESS: IngressCodec = {
  name: 'anthropic',
  toOpenAi: (body) => openAiRequestOfAnthropic(body),
  fromOpenAi: (openai, usage, ctx) => anthropicResponseOfOpenAi(openai, usage, ctx),
  stream: (ctx) => new AnthropicStreamEncoder(ctx),
  errorBody: (status, message) => anthropicErrorBody(status, message),
};
