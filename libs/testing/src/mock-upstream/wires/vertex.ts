/**
 * Google Vertex AI in the mock: `POST /token` (the OAuth endpoint a test service account's
 * token_uri names: a jwt-bearer grant in, `{access_token, expires_in, token_type}` out), Gemini's
 * `…/publishers/google/models/{m}:generateContent|:streamGenerateContent` (the Gemini wire's
 * answers) and Claude's `…/publishers/anthropic/models/{m}:rawPredict|:streamRawPredict`
 * (Anthropic's Messages answers). Model calls need a Bearer token this endpoint issued; errors
 * are Google's `{"error":{"code","message","status"}}`, a Claude body Vertex refuses Anthropic's.
 */
import { decodeSegment, sendJson } from '../mock-kit';
import { anthropicMessage, writeAnthropicSse } from './anthropic-messages';
import { GEMINI_WIRE, geminiGenerate } from './gemini';
import type { ProviderWire, WireCall, WireFailure } from './provider-wire';

export const VERTEX_TOKEN_PATH = '/token';
/** Tokens this mock issues start so (Google's access tokens do too). */
export const VERTEX_TOKEN_PREFIX = 'ya29.mock-';

const ROUTE =
  /\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/(google|anthropic)\/models\/([^/:]+):(generateContent|streamGenerateContent|rawPredict|streamRawPredict)$/;

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function googleError(code: number, message: string, status: string): WireFailure {
  return { status: code, body: { error: { code, message, status } } };
}

const decodePart = (part: string): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  } catch {
    return undefined;
  }
};

/** Why a token request is refused (OAuth's error shape); undefined when it is a valid grant. */
function grantProblem(body: Record<string, unknown>): object | undefined {
  if (body['grant_type'] !== JWT_BEARER) {
    return { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' };
  }
  const parts = typeof body['assertion'] === 'string' ? body['assertion'].split('.') : [];
  const header = parts.length === 3 ? decodePart(parts[0]!) : undefined;
  const claims = parts.length === 3 ? decodePart(parts[1]!) : undefined;
  // The signature cannot be checked (the mock has no public key): only the JWT's shape is.
  if (!header || !claims || header['alg'] !== 'RS256' || typeof claims['iss'] !== 'string') {
    return { error: 'invalid_grant', error_description: 'Invalid JWT: assertion is malformed.' };
  }
  const { iat, exp } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number' || exp <= iat) {
    return {
      error: 'invalid_grant',
      error_description: 'Invalid JWT: Token must be a short-lived token.',
    };
  }
  return undefined;
}

function token(call: WireCall): void {
  const problem = grantProblem(call.body);
  if (problem) return sendJson(call.res, 400, problem);
  sendJson(call.res, 200, {
    access_token: `${VERTEX_TOKEN_PREFIX}${call.id}`,
    expires_in: 3600,
    token_type: 'Bearer',
  });
}

/** A model call without a token this mock issued, refused the way Google refuses it. */
function bearerProblem(call: WireCall): WireFailure | undefined {
  const auth = call.res.req.headers['authorization'];
  if (typeof auth !== 'string' || !/^bearer\s+/i.test(auth)) {
    return googleError(
      401,
      'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      'UNAUTHENTICATED',
    );
  }
  if (!auth.replace(/^bearer\s+/i, '').startsWith(VERTEX_TOKEN_PREFIX)) {
    return INVALID_CREDENTIALS;
  }
  return undefined;
}

const INVALID_CREDENTIALS = googleError(
  401,
  'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  'UNAUTHENTICATED',
);

/** Anthropic's error shape, for a Claude body Vertex would refuse. */
const claudeRefusal = (message: string): WireFailure => ({
  status: 400,
  body: { type: 'error', error: { type: 'invalid_request_error', message } },
});

function claudeBodyProblem(body: Record<string, unknown>): WireFailure | undefined {
  if (body['anthropic_version'] !== 'vertex-2023-10-16') {
    return claudeRefusal('anthropic_version: Input should be vertex-2023-10-16');
  }
  if (body['model'] !== undefined) return claudeRefusal('model: Extra inputs are not permitted');
  return undefined;
}

function claude(call: WireCall): void | Promise<void> {
  const refused = claudeBodyProblem(call.body);
  if (refused) return sendJson(call.res, refused.status, refused.body);
  const id = `msg_vrtx_mock_${call.id}`;
  if (!call.path.endsWith(':streamRawPredict')) {
    return sendJson(call.res, 200, anthropicMessage(call, id));
  }
  return writeAnthropicSse(call, id);
}

export const VERTEX_WIRE: ProviderWire = {
  name: 'vertex',
  matches: (method, path) => method === 'POST' && (path === VERTEX_TOKEN_PATH || ROUTE.test(path)),
  modelOf(path) {
    const segment = ROUTE.exec(path)?.[2];
    return segment === undefined ? undefined : decodeSegment(segment);
  },
  answer(call) {
    if (call.path === VERTEX_TOKEN_PATH) return token(call);
    const refused = bearerProblem(call);
    if (refused) return sendJson(call.res, refused.status, refused.body);
    return ROUTE.exec(call.path)?.[1] === 'anthropic' ? claude(call) : geminiGenerate(call);
  },
  failure(kind, status, key) {
    // Vertex answers an unusable token with 401 where the Gemini API says 400 for a bad key.
    return kind === 'invalid_key' ? INVALID_CREDENTIALS : GEMINI_WIRE.failure(kind, status, key);
  },
};
