/**
 * The one way every attempt (pass-through, converted, native) sends its request: the channel's
 * parameter override set on the body, then the adaptor's authorization (which may sign the body),
 * then the call on the origin's pool. A stream call's answer comes with its body to be read as it
 * arrives; a non-stream call's, read whole (whole-answer.ts).
 */
import { withFields } from '@tollgate/domain';
import type { ChatAdaptor, ProviderRequest } from '@tollgate/relay';
import { paramOverrideOf, withParamOverride } from './param-override';
import type { Prepared } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import type { UpstreamPools } from './upstream-pools';
import { requestWhole, type UpstreamAnswer } from './whole-answer';

/** Sends `request` for `p` on `channel`; throws what the authorization or the socket throws. */
export async function dispatchUpstream(
  pools: UpstreamPools,
  p: Prepared,
  channel: RoutedChannel,
  request: ProviderRequest,
  adaptor?: Pick<ChatAdaptor, 'authorize'>,
): Promise<UpstreamAnswer> {
  const override = paramOverrideOf(p, channel);
  let sent = override
    ? withFields(request, { body: withParamOverride(request.body, override) })
    : request;
  if (adaptor?.authorize) sent = await adaptor.authorize(sent, channel, new Date());
  const pool = pools.pool(sent.origin);
  const options = { method: sent.method, path: sent.path, headers: sent.headers, body: sent.body };
  return p.facts.stream ? pool.request(options) : requestWhole(pool, options);
}
