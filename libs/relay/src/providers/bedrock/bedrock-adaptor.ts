/**
 * AWS Bedrock Claude (channel type 33): the Anthropic Messages body sent to Bedrock Runtime's
 * InvokeModel / InvokeModelWithResponseStream, signed with SigV4. Answers and stream events are
 * Anthropic's own, so conversion is the Anthropic adaptor's; only the envelope differs (the model
 * in the URL, `anthropic_version` in the body, the binary event stream, `{"message"}` errors).
 */
import { withFields } from '@tollgate/domain';
import type { UpstreamErrorInfo } from '../../errors/relay-error';
import type { RelayEndpoint, WireChannel } from '../../openai/openai-wire';
import type { JsonObject } from '../../openai/request-body';
import { ANTHROPIC_ADAPTOR } from '../anthropic/anthropic-adaptor';
import type { ChatAdaptor, ProviderRequest } from '../chat-adaptor';
import { isObject } from '../json-parts';
import { parseBedrockKey } from './bedrock-key';
import { signBedrockRequest } from './bedrock-signing';

export const BEDROCK_CHANNEL_TYPE = 33;
/** The only Messages API version Bedrock accepts, stated in the body. */
export const BEDROCK_ANTHROPIC_VERSION = 'bedrock-2023-05-31';

/**
 * Anthropic's model names as Bedrock model ids (new-api keeps the same map). A channel's model
 * mapping can name any other id; names not here go upstream as they are.
 */
export const BEDROCK_MODEL_IDS: Readonly<Record<string, string>> = {
  'claude-instant-1.2': 'anthropic.claude-instant-v1',
  'claude-2.0': 'anthropic.claude-v2',
  'claude-2.1': 'anthropic.claude-v2:1',
  'claude-3-haiku-20240307': 'anthropic.claude-3-haiku-20240307-v1:0',
  'claude-3-sonnet-20240229': 'anthropic.claude-3-sonnet-20240229-v1:0',
  'claude-3-opus-20240229': 'anthropic.claude-3-opus-20240229-v1:0',
  'claude-3-5-sonnet-20240620': 'anthropic.claude-3-5-sonnet-20240620-v1:0',
  'claude-3-5-sonnet-20241022': 'anthropic.claude-3-5-sonnet-20241022-v2:0',
  'claude-3-5-haiku-20241022': 'anthropic.claude-3-5-haiku-20241022-v1:0',
  'claude-3-7-sonnet-20250219': 'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'claude-sonnet-4-20250514': 'anthropic.claude-sonnet-4-20250514-v1:0',
  'claude-opus-4-20250514': 'anthropic.claude-opus-4-20250514-v1:0',
  'claude-opus-4-1-20250805': 'anthropic.claude-opus-4-1-20250805-v1:0',
};

/**
 * Models Bedrock serves on demand only through a cross-region inference profile: their id gets
 * the region's geography prefix (`us.anthropic…`), else Bedrock refuses on-demand throughput.
 */
const PROFILE_ONLY: ReadonlySet<string> = new Set([
  'anthropic.claude-3-7-sonnet-20250219-v1:0',
  'anthropic.claude-sonnet-4-20250514-v1:0',
  'anthropic.claude-opus-4-20250514-v1:0',
  'anthropic.claude-opus-4-1-20250805-v1:0',
]);

function geography(region: string): string | undefined {
  if (region.startsWith('us-gov-')) return 'us-gov';
  if (region.startsWith('us-')) return 'us';
  if (region.startsWith('eu-')) return 'eu';
  if (region.startsWith('ap-')) return 'apac';
  return undefined;
}

/**
 * The Bedrock model id for `model` in `region`: a known Claude name mapped, then prefixed when it
 * needs an inference profile; an id (`anthropic.…`, `us.anthropic.…`, an ARN) passes through.
 */
export function bedrockModelId(model: string, region: string): string {
  const id = BEDROCK_MODEL_IDS[model] ?? model;
  const geo = geography(region);
  return PROFILE_ONLY.has(id) && geo ? `${geo}.${id}` : id;
}

/** The regional endpoint; a channel base URL (the mock, a VPC endpoint) replaces it. */
export function bedrockBaseUrl(channel: Pick<WireChannel, 'baseUrl'>, region: string): string {
  const base = channel.baseUrl.trim().replace(/\/+$/, '');
  return base !== '' ? base : `https://bedrock-runtime.${region}.amazonaws.com`;
}

/**
 * Members of a Messages body Bedrock refuses ("extraneous key is not permitted"): the model and
 * stream live in the URL, and Bedrock has no `metadata` / `service_tier`.
 */
const NOT_IN_BEDROCK_BODY = ['model', 'stream', 'metadata', 'service_tier'];

function bedrockBody(messages: Buffer, betaHeader: string | undefined): Buffer {
  const body = JSON.parse(messages.toString('utf8')) as JsonObject;
  for (const name of NOT_IN_BEDROCK_BODY) delete body[name];
  const out: JsonObject = { anthropic_version: BEDROCK_ANTHROPIC_VERSION, ...body };
  // Anthropic's beta header is a body member on Bedrock.
  const betas = (betaHeader ?? '')
    .split(',')
    .map((beta) => beta.trim())
    .filter(Boolean);
  if (betas.length > 0 && out.anthropic_beta === undefined) out.anthropic_beta = betas;
  return Buffer.from(JSON.stringify(out));
}

/** Bedrock's error body `{"message": "..."}` (its type is only in the x-amzn-ErrorType header). */
function bedrockErrorOfBody(raw: string): UpstreamErrorInfo | undefined {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (isObject(parsed) && !('error' in parsed)) {
      const message = parsed.message ?? parsed.Message;
      if (typeof message === 'string') return { message, type: 'upstream_error', code: '' };
    }
  } catch {
    // not JSON: the Anthropic reader keeps the text
  }
  return undefined;
}

/** The Bedrock adaptor over `anthropic`, whose conversions it reuses. */
export function bedrockAdaptor(anthropic: ChatAdaptor): ChatAdaptor {
  return {
    name: 'aws-claude',
    framing: 'aws-eventstream',
    endpoints: new Set<RelayEndpoint>(['chat']),
    request(endpoint, openai, channel, upstreamModel, stream, now, ctx): ProviderRequest {
      // Throws BedrockKeyError for a malformed key: the region is part of the URL.
      const { region } = parseBedrockKey(channel.key);
      const base = bedrockBaseUrl(channel, region);
      // Only its body (and its anthropic-beta, claude.model_headers_settings included) is used;
      // it gets a URL it can parse and no key to put in a header.
      const messages = anthropic.request(
        endpoint,
        openai,
        withFields(channel, { baseUrl: base, key: '' }),
        upstreamModel,
        stream,
        now,
        ctx,
      );
      // The `-thinking` adapter may have cut the model: the id is the model sent.
      const sent = messages.upstreamModel ?? upstreamModel;
      const model = encodeURIComponent(bedrockModelId(sent, region));
      const action = stream ? 'invoke-with-response-stream' : 'invoke';
      const url = new URL(`${base}/model/${model}/${action}`);
      // Only these headers: the Anthropic ones carry the channel key as x-api-key.
      const headers: Record<string, string> = stream
        ? {
            'content-type': 'application/json',
            accept: 'application/vnd.amazon.eventstream',
            'x-amzn-bedrock-accept': 'application/json',
          }
        : { 'content-type': 'application/json', accept: 'application/json' };
      return {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        headers,
        method: 'POST',
        body: bedrockBody(messages.body, messages.headers['anthropic-beta']),
        ...(sent !== upstreamModel ? { upstreamModel: sent } : {}),
        // A JSON-mode prefill went in the Anthropic body: the answer starts with it again.
        ...(messages.answerPrefix !== undefined ? { answerPrefix: messages.answerPrefix } : {}),
      };
    },
    authorize(req, channel, now) {
      const { credentials, region } = parseBedrockKey(channel.key);
      return signBedrockRequest(req, credentials, region, now);
    },
    response: (endpoint, provider, ctx) => anthropic.response(endpoint, provider, ctx),
    stream: (ctx) => anthropic.stream(ctx),
    error: (status, text) => bedrockErrorOfBody(text) ?? anthropic.error(status, text),
  };
}

/** Channel type 33 as the gateway uses it. */
export const BEDROCK_ADAPTOR: ChatAdaptor = bedrockAdaptor(ANTHROPIC_ADAPTOR);
