import { USER_ID_HEADER } from '@tollgate/contracts';
import { SESSION_COOKIE } from '../auth/session-codec';
import type { RouteRole } from './api-route';
import type { JsonSchema } from './dto-schemas';

/** The shared schemas every document carries (contracts' ApiEnvelope, the relay's error). */
export const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  Envelope: {
    type: 'object',
    description:
      'Every /api answer (contracts ApiEnvelope): business failures are HTTP 200 with success false and the reason in message.',
    required: ['success', 'message'],
    properties: {
      success: { type: 'boolean' },
      message: { type: 'string' },
      data: { description: 'The answer itself; absent when there is nothing to return.' },
    },
  },
  OpenAiError: {
    type: 'object',
    description: "The relay's error shape (OpenAI's), whatever upstream failed.",
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['message', 'type'],
        properties: {
          message: { type: 'string' },
          type: { type: 'string' },
          code: { type: ['string', 'null'] },
        },
      },
    },
  },
  RelayRequest: {
    type: 'object',
    description:
      "The provider's request body, passed on as sent (OpenAI's for /v1, Anthropic's for /v1/messages); `stream: true` answers text/event-stream.",
    required: ['model'],
    properties: { model: { type: 'string' }, stream: { type: 'boolean' } },
    additionalProperties: true,
  },
  AudioUpload: {
    type: 'object',
    required: ['file', 'model'],
    properties: {
      file: { type: 'string', contentMediaType: 'application/octet-stream' },
      model: { type: 'string' },
    },
    additionalProperties: true,
  },
};

export const SECURITY_SCHEMES: Record<string, JsonSchema> = {
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: SESSION_COOKIE,
    description: 'The console session, set by POST /api/user/login.',
  },
  userHeader: {
    type: 'apiKey',
    in: 'header',
    name: USER_ID_HEADER,
    description: "The caller's user id; must match the session or access token.",
  },
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'A system access token (GET /api/user/token), with New-Api-User.',
  },
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'sk-…',
    description: 'An API key made on the console Tokens page.',
  },
};

const CONSOLE_SECURITY: Array<Record<string, string[]>> = [
  { session: [], userHeader: [] },
  { accessToken: [], userHeader: [] },
];

/** Security requirements of a role: none, the console's sign-in, or an API key. */
export function securityOf(role: RouteRole): Array<Record<string, string[]>> {
  if (role === 'public') return [];
  if (role === 'token') return [{ apiKey: [] }];
  return CONSOLE_SECURITY;
}

const ROLE_SENTENCES: Record<RouteRole, string> = {
  public: 'Public: no sign-in needed.',
  user: 'Needs a signed-in user (any role).',
  admin: 'Needs an administrator (role 10 or above).',
  root: 'Needs the root user (role 100).',
  token: 'Needs an API key (Authorization: Bearer sk-…).',
};

export const roleSentence = (role: RouteRole): string => ROLE_SENTENCES[role];
