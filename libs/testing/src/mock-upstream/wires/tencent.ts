/**
 * Tencent Hunyuan (TencentCloud API) in the mock: POST / with `X-TC-Action: ChatCompletions`.
 * Calls must carry a TC3-HMAC-SHA256 Authorization of the right shape whose date matches
 * X-TC-Timestamp (the secret is unknown here, so the signature itself is not checked). Answers are
 * `{Response: {...}}`, or `data:` SSE events without the wrapper when the body has `Stream: true`.
 * Like TencentCloud, failures are `{Response: {Error: {Code, Message}, RequestId}}` in an HTTP 200
 * body; only an explicit `status` behaviour changes the status.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const REQUEST_ID = 'e4b12e4a-d30d-4ff6-8b5e-0c8d6e1e6e4d';
const NOTE = '以上内容为AI生成，不代表开发者立场，请勿删除或修改本标记';
const TC3 =
  /^TC3-HMAC-SHA256 Credential=([^/\s]+)\/(\d{4}-\d{2}-\d{2})\/hunyuan\/tc3_request, SignedHeaders=([a-z0-9;-]+), Signature=[0-9a-f]{64}$/;

const tencentError = (code: string, message: string) => ({
  Response: { Error: { Code: code, Message: message }, RequestId: REQUEST_ID },
});

/** Why the call is refused, in TencentCloud's words; undefined when well-formed. */
function problem(call: WireCall): object | undefined {
  const headers = call.res.req.headers;
  if (headers['x-tc-action'] !== 'ChatCompletions') {
    return tencentError(
      'InvalidAction',
      'The action requested is invalid: the mock serves ChatCompletions.',
    );
  }
  const auth = headers['authorization'];
  const timestamp = Number(headers['x-tc-timestamp']);
  const match = typeof auth === 'string' ? TC3.exec(auth) : null;
  const signed = match?.[3]?.split(';') ?? [];
  if (
    !match ||
    !Number.isInteger(timestamp) ||
    new Date(timestamp * 1000).toISOString().slice(0, 10) !== match[2] ||
    !signed.includes('content-type') ||
    !signed.includes('host')
  ) {
    return tencentError(
      'AuthFailure.SignatureFailure',
      'The provided credentials could not be validated. Please check your signature is correct.',
    );
  }
  return undefined;
}

function usage(behavior: MockBehavior, completion: number) {
  const prompt = usageOf(behavior).prompt_tokens;
  return { PromptTokens: prompt, CompletionTokens: completion, TotalTokens: prompt + completion };
}

function chat(call: WireCall): void | Promise<void> {
  const refused = problem(call);
  if (refused) return sendJson(call.res, 200, refused);
  const { behavior, res, id } = call;
  const created = Math.floor(Date.now() / 1000);
  const total = usageOf(behavior).completion_tokens;
  const parts = pieces(behavior);
  if (call.body['Stream'] !== true) {
    return sendJson(res, 200, {
      Response: {
        RequestId: REQUEST_ID,
        Note: NOTE,
        Choices: [
          { Message: { Role: 'assistant', Content: parts.join('') }, FinishReason: 'stop' },
        ],
        Created: created,
        Id: `mock-${id}`,
        Usage: usage(behavior, total),
      },
    });
  }
  const event = (content: string, finish: string, completion: number) =>
    JSON.stringify({
      Note: NOTE,
      Choices: [{ Delta: { Role: 'assistant', Content: content }, FinishReason: finish }],
      Created: created,
      Id: `mock-${id}`,
      Usage: usage(behavior, completion),
    });
  const frames = parts.map((text, i) =>
    event(text, '', Math.round(((i + 1) * total) / Math.max(1, parts.length))),
  );
  return writeStream(res, behavior, [], frames, [event('', 'stop', total)]);
}

export const TENCENT_WIRE: ProviderWire = {
  name: 'tencent',
  // TencentCloud APIs post to the root: the action is a header.
  matches: (method, path) => method === 'POST' && path === '/',
  answer: chat,
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return {
          status: 200,
          body: tencentError(
            'AuthFailure.SecretIdNotFound',
            'The SecretId is not found, please ensure that your SecretId is correct.',
          ),
        };
      case 'rate_limit':
        return { status: 200, body: tencentError('LimitExceeded', '超过配额限制') };
      case 'quota_exceeded':
        return {
          status: 200,
          body: tencentError('ResourceInsufficient.ChargeResourceExhaust', '计费资源已耗尽'),
        };
      case 'server_error':
        return { status: 200, body: tencentError('InternalError', '内部错误') };
      default:
        return { status, body: tencentError('InternalError', `mock status ${status}`) };
    }
  },
};
