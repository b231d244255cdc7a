/**
 * Model fallbacks (docs/relay.md "Model fallbacks"): which models a call whose every channel
 * failed may move on to, and the call re-prepared for one of them — its body naming the model,
 * priced, allowed and routed for it — as prepareRequest would have prepared it had the client
 * asked for that model.
 */
import { withFields } from '@tollgate/domain';
import { type FallbackReason, RelayError, replaceMultipartField } from '@tollgate/relay';
import { clientWireOfIngress } from './client-wire';
import { prepareRequest } from './prepare-request';
import type { Prepared, RelayCall, Unreserved } from './relay-call';
import type { RoutingTablePort } from './relay-ports';

/**
 * The fallback models of the model the client asked for, in order (ModelFallbacks; not
 * transitive). None for a call pinned to a channel, for the playground (it tries the model the
 * user picked, so its error is the answer) and for a token that opted out.
 */
export function fallbackModels(p: Prepared): readonly string[] {
  const { call } = p;
  if (call.playground || call.caller.pinnedChannelId !== undefined) return [];
  if (call.caller.token?.modelFallback === false) return [];
  const requested = p.fallback?.requestedModel ?? p.facts.model;
  // The option refuses a model listed among its own fallbacks, so the list is used as written.
  return p.settings.modelFallbacks.get(requested) ?? [];
}

/**
 * `p` prepared again for `model`, or the refusal that rules the model out (the token may not use
 * it, it has no price, no channel of the group serves it). Its chain of channels goes on.
 */
export function prepareFallback(
  p: Prepared,
  model: string,
  reason: FallbackReason,
  routing: RoutingTablePort,
): Unreserved | RelayError {
  const call = callFor(p, model);
  const next = prepareRequest(call, p.settings, clientWireOfIngress(call.ingress), routing);
  if (next instanceof RelayError) return next;
  const requestedModel = p.fallback?.requestedModel ?? p.facts.model;
  return withFields(next, { chain: p.chain, fallback: { requestedModel, reason } });
}

/** The call as if the client had asked for `model`: in the path, the form or the JSON body. */
function callFor(p: Prepared, model: string): RelayCall {
  const { call } = p;
  if (call.modelFromPath !== undefined) return withFields(call, { modelFromPath: model });
  if (p.boundary !== undefined) {
    return withFields(call, { raw: replaceMultipartField(call.raw, p.boundary, 'model', model) });
  }
  return withFields(call, {
    raw: Buffer.from(JSON.stringify(withFields(p.body ?? {}, { model }))),
  });
}
