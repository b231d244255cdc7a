import type { Prepared } from './relay-call';

/**
 * What a receipt and a failure event both say of a call: who made it, through which token and
 * group, for which model, over which channels and route, from where.
 */
export function callFacts(p: Prepared, channelId: number) {
  const { call } = p;
  const token = call.caller.token;
  return {
    requestId: call.requestId,
    userId: call.caller.user.id,
    tokenId: token?.id ?? 0,
    tokenName: token?.name ?? '',
    group: p.group,
    model: p.facts.model,
    channelId,
    channelChain: [...p.chain],
    endpoint: call.route,
  };
}
