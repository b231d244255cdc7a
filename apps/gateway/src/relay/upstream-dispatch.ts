/**
 * The one way every attempt (pass-through, converted, native) sends its request: the channel's
 * parameter override set on the body, then the adaptor's authorization (which may sign the body),
 * then the call on the origin's pool.
 */
import { withFields } from '@tollgate/domain';
import type { ChatAdaptor, ProviderRequest } from '@tollgate/relay';
import type { Dispatcher } from 'undici';
import { paramOverrideOf, withParamOverride } from './param-override';
import type { Prepared } from './relay-call';
import type { RoutedChannel } from './relay-ports';
import type { UpstreamPools } from './upstream-pools';

/** Sends `request` for `p` on `channel`; throws what the authorization or the socket throws. */
export async function dispatchUpstream(
  pools: UpstreamPools,
  p: Prepared,
  channel: RoutedChannel,
  request: ProviderRequest,
  adaptor?: Pick<ChatAdaptor, 'authorize'>,
): Promise<Dispatcher.ResponseData> {
  const override = paramOverrideOf(p, channel);
  let sent = override
    ? withFields(request, { body: withParamOverride(request.body, override) })
    : request;
  if (adaptor?.authorize) sent = await adaptor.authorize(sent, channel, new Date());
  return pools.pool(sent.origin).request({
    method: sent.method,
    path: sent.path,
    headers: sent.headers,
    body: sent.body,
  });
}
