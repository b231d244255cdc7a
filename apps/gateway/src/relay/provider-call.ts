/**
 * What the converted and native attempts share: the request's context for the adaptor, the
 * ceiling the provider is sent, and the call itself with its failure in the OpenAI error fields.
 */
import {
  type CeilingWire,
  type ChatAdaptor,
  type ConvertedFailure,
  type ProviderRequest,
  rawWithCeiling,
  type RequestContext,
  retryAfterMs,
} from '@tollgate/relay';
import { ceilingWireOf } from './pass-through-stream';
import type { AttemptResult, Prepared } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import { dispatchUpstream } from './upstream-dispatch';
import { networkFailure } from './upstream-io';
import type { UpstreamPools } from './upstream-pools';
import { errorText, isSuccess, type UpstreamAnswer } from './whole-answer';

/** A provider's failure as the attempt's. */
export function failedWith(failure: ConvertedFailure): AttemptResult {
  return {
    kind: 'failed',
    failure: { kind: 'http', status: failure.status, ...failure.info },
  };
}

/**
 * Sends (the channel's override set, the adaptor's authorization added); a non-2xx answer becomes
 * the attempt's failure in the OpenAI error fields.
 */
export async function sendToProvider(
  pools: UpstreamPools,
  p: Prepared,
  channel: RoutedChannel,
  request: ProviderRequest,
  adaptor: ChatAdaptor,
): Promise<{ answer: UpstreamAnswer } | { failed: AttemptResult }> {
  let answer: UpstreamAnswer;
  try {
    answer = await dispatchUpstream(pools, p, channel, request, adaptor);
  } catch (error) {
    // Also a channel whose key cannot be authorized (a malformed Bedrock or Tencent key).
    return { failed: { kind: 'failed', failure: networkFailure(error) } };
  }
  if (isSuccess(answer.statusCode)) return { answer };
  const text = await errorText(answer);
  return {
    failed: {
      kind: 'failed',
      failure: {
        kind: 'http',
        status: answer.statusCode,
        ...adaptor.error(answer.statusCode, text),
      },
      retryAfterMs: retryAfterMs(answer.headers['retry-after'], Date.now()),
    },
  };
}

/**
 * The ceiling a converted or native request carries: the reserved one, or the provider's own
 * default when that is less and the client named none (Claude's `claude.default_max_tokens`).
 */
export function sentCeiling(
  p: Prepared,
  adaptor: ChatAdaptor,
  upstreamModel: string,
  ctx: RequestContext,
): number | undefined {
  if (p.ceiling === undefined || p.facts.maxTokens !== undefined) return p.ceiling;
  const own = adaptor.defaultCeiling?.(upstreamModel, ctx);
  return own !== undefined && own > 0 ? Math.min(own, p.ceiling) : p.ceiling;
}

/**
 * What the adaptor is told besides the body: the providers' settings (parsed once per option
 * change), the client's model, and the client's bytes when global pass-through is on (the
 * playground's own `group` member left out).
 */
export function requestContext(p: Prepared, upstreamModel: string): RequestContext {
  const settings = p.settings.providers;
  if (!settings.passThrough) return { settings, clientModel: p.facts.model };
  const raw = p.call.playground && p.hub ? Buffer.from(JSON.stringify(p.hub)) : p.call.raw;
  const body = p.call.playground ? p.hub : p.body;
  // The client's bytes, but for the output ceiling in its own protocol's field.
  const passThroughBody =
    p.ceiling === undefined || !body
      ? raw
      : rawWithCeiling(raw, body, clientCeilingWire(p), p.ceiling, upstreamModel).raw;
  return { settings, clientModel: p.facts.model, passThroughBody };
}

/** Where the client's own body carries its ceiling. */
function clientCeilingWire(p: Prepared): CeilingWire {
  return p.call.ingress ?? ceilingWireOf(p.call.endpoint);
}
