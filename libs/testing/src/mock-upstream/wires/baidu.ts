/**
 * Baidu ERNIE (Qianfan v1) in the mock: POST /oauth/2.0/token (client credentials → an
 * access_token) and POST /rpc/2.0/ai_custom/v1/wenxinworkshop/chat/{endpoint}?access_token=…
 * (JSON, or `data:` SSE when the body has `stream: true`). A chat call without a token this mock
 * issued gets error 110. Like Baidu, failures are `{error_code, error_msg}` in an HTTP 200 body;
 * only an explicit `status` behaviour changes the status.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const TOKEN_PATH = '/oauth/2.0/token';
const CHAT = /\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/[^/]+$/;

/** The token the mock issues for a client id (tests can predict it). */
export const baiduMockToken = (clientId: string) => `24.mock.${clientId}`;

function token(call: WireCall): void {
  const { client_id: id, client_secret: secret, grant_type: grant } = call.query;
  if (grant !== 'client_credentials' || !id || !secret) {
    return sendJson(call.res, 401, {
      error: 'invalid_client',
      error_description: 'unknown client id',
    });
  }
  sendJson(call.res, 200, {
    refresh_token: `25.mock.${id}`,
    expires_in: 2592000,
    session_key: 'mock-session',
    access_token: baiduMockToken(id),
    scope: 'public ai_custom_yiyan_com',
    session_secret: 'mock-secret',
  });
}

function counts(behavior: MockBehavior, completion: number) {
  const prompt = usageOf(behavior).prompt_tokens;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
  };
}

function chat(call: WireCall): void | Promise<void> {
  const { behavior, res, id } = call;
  if (!call.query['access_token']?.startsWith('24.mock.')) {
    return sendJson(res, 200, baiduError(110, 'Access token invalid or no longer valid'));
  }
  const created = Math.floor(Date.now() / 1000);
  const total = usageOf(behavior).completion_tokens;
  const base = { id: `as-mock${id}`, object: 'chat.completion', created };
  const parts = pieces(behavior);
  if (call.body['stream'] !== true) {
    return sendJson(res, 200, {
      ...base,
      result: parts.join(''),
      is_truncated: false,
      need_clear_history: false,
      finish_reason: 'normal',
      usage: counts(behavior, total),
    });
  }
  const event = (n: number, result: string, end: boolean, completion: number) =>
    JSON.stringify({
      ...base,
      sentence_id: n,
      is_end: end,
      is_truncated: false,
      result,
      need_clear_history: false,
      finish_reason: 'normal',
      usage: counts(behavior, completion),
    });
  const frames = parts.map((text, i) =>
    event(i, text, false, Math.round(((i + 1) * total) / Math.max(1, parts.length))),
  );
  return writeStream(res, behavior, [], frames, [event(parts.length, '', true, total)]);
}

const baiduError = (code: number, message: string) => ({ error_code: code, error_msg: message });

export const BAIDU_WIRE: ProviderWire = {
  name: 'baidu',
  matches: (method, path) => method === 'POST' && (path.endsWith(TOKEN_PATH) || CHAT.test(path)),
  answer: (call) => (call.path.endsWith(TOKEN_PATH) ? token(call) : chat(call)),
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return { status: 200, body: baiduError(110, 'Access token invalid or no longer valid') };
      case 'rate_limit':
        return { status: 200, body: baiduError(18, 'Open api qps request limit reached') };
      case 'quota_exceeded':
        return { status: 200, body: baiduError(17, 'Open api daily request limit reached') };
      case 'server_error':
        return { status: 200, body: baiduError(336100, 'try again later') };
      default:
        return { status, body: baiduError(336000, `mock status ${status}`) };
    }
  },
};
