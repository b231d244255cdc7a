/**
 * OpenAI's Responses API (`POST /v1/responses`) as a client protocol for channels that have no
 * Responses API of their own: the request goes through the chat hub, the answer comes back as a
 * `response` object or the Responses event sequence. Channels speaking the OpenAI wire get the
 * client's bytes as they are; this codec is only for the converting ones.
 */
import { openAiErrorBody } from '../../errors/relay-error';
import type { IngressCodec } from '../ingress-codec';
import { responseOfChat } from './responses-answer';
import { chatRequestOfResponses } from './responses-request';
import { ResponsesStreamEncoder } from './responses-stream';

export const RESPONSES_OVER_CHAT: IngressCodec = {
  name: 'responses',
  toOpenAi: (body) => chatRequestOfResponses(body),
  fromOpenAi: responseOfChat,
  stream: (ctx) => new ResponsesStreamEncoder(ctx),
  errorBody: (_status, message, type, code) => ({ ...openAiErrorBody(message, type, code) }),
};
