/**
 * Alibaba DashScope's native text generation in the mock:
 * POST /api/v1/services/aigc/text-generation/generation. JSON by default; SSE (`id:`, `event:result`,
 * a `:HTTP_STATUS/200` comment, `data:`) when the call sends `X-DashScope-SSE: enable`. Every event
 * carries the usage so far; without `parameters.incremental_output` each event repeats the whole
 * text so far, as DashScope does. Errors are `{code, message, request_id}`.
 */
import type { MockBehavior } from '../mock-behavior';
import { pieces, sendJson, usageOf, WHOLE_SSE_FRAMES, writeStream } from '../mock-kit';
import type { ProviderWire, WireCall } from './provider-wire';

const PATH = '/services/aigc/text-generation/generation';
const REQUEST_ID = '09dceb20-ae2e-999b-85f9-c5ab266198c0';

const event = (n: number, data: object) =>
  `id:${n}\nevent:result\n:HTTP_STATUS/200\ndata:${JSON.stringify(data)}\n\n`;

function usage(behavior: MockBehavior, output: number) {
  const u = usageOf(behavior);
  const cached = behavior.usage?.cached_tokens;
  return {
    total_tokens: u.prompt_tokens + output,
    output_tokens: output,
    input_tokens: u.prompt_tokens,
    ...(cached ? { prompt_tokens_details: { cached_tokens: cached } } : {}),
  };
}

const answer = (content: string, finish: string, counts: object) => ({
  output: { choices: [{ message: { role: 'assistant', content }, finish_reason: finish }] },
  usage: counts,
  request_id: REQUEST_ID,
});

function generation(call: WireCall): void | Promise<void> {
  const { behavior, res } = call;
  const parts = pieces(behavior);
  const total = usageOf(behavior).completion_tokens;
  if (res.req.headers['x-dashscope-sse'] !== 'enable') {
    return sendJson(res, 200, answer(parts.join(''), 'stop', usage(behavior, total)));
  }
  const parameters = call.body['parameters'] as Record<string, unknown> | undefined;
  const incremental = parameters?.['incremental_output'] === true;
  let sofar = '';
  const frames = parts.map((text, i) => {
    sofar += text;
    const output = Math.min(total, Math.round(((i + 1) * total) / Math.max(1, parts.length)));
    return event(i + 1, answer(incremental ? text : sofar, 'null', usage(behavior, output)));
  });
  const last = event(
    parts.length + 1,
    answer(incremental ? '' : sofar, 'stop', usage(behavior, total)),
  );
  return writeStream(res, behavior, [], frames, [last], WHOLE_SSE_FRAMES);
}

const error = (code: string, message: string) => ({ code, message, request_id: REQUEST_ID });

export const ALI_WIRE: ProviderWire = {
  name: 'ali',
  matches: (method, path) => method === 'POST' && path.endsWith(PATH),
  answer: generation,
  failure(kind, status) {
    switch (kind) {
      case 'invalid_key':
        return { status: 401, body: error('InvalidApiKey', 'Invalid API-key provided.') };
      case 'rate_limit':
        return {
          status: 429,
          body: error(
            'Throttling.RateQuota',
            'Requests rate limit exceeded, please try again later.',
          ),
        };
      case 'quota_exceeded':
        return {
          status: 400,
          body: error(
            'Arrearage',
            'Access denied, please make sure your account is in good standing.',
          ),
        };
      case 'server_error':
        return { status: 500, body: error('InternalError', 'An internal error has occured.') };
      default:
        return { status, body: error('MockStatus', `mock status ${status}`) };
    }
  },
};
