/** The usage receipt (RequestRelayed) of an answered call: what was charged and why. */
import type { ChargeReceipt, RequestRelayed } from '@tollgate/domain';
import { callFacts } from './call-facts';
import { paramOverrideOf } from './param-override';
import type { Answered } from './relay-call';
import { leasesOf } from './relay-ports';

/**
 * The receipt of `answered`, charged `charged` quota (the book's figure: the whole cost, even past
 * the reservation) on the prices of `charge`, settled at `now`. Optional fields appear only when
 * they say something (a cache write, a lowered ceiling, an overrun, a cut stream).
 */
export function buildReceipt(
  answered: Answered,
  charge: ChargeReceipt,
  charged: number,
  now: number,
): RequestRelayed['data'] {
  const { prepared: p, usage, firstAt, stream } = answered;
  const { call, reservation } = p;
  const overrun = charged - reservation.amount;
  // The upstream wrote more than the ceiling it was sent: counted against its channel.
  const ceilingIgnored = p.ceiling !== undefined && charge.completionTokens > p.ceiling * p.choices;
  const overridden = paramOverrideOf(p, answered.channel);
  return {
    ...callFacts(p, answered.channel.id),
    upstreamModel: answered.upstreamModel,
    promptTokens: charge.promptTokens,
    completionTokens: charge.completionTokens,
    cachedTokens: charge.cachedTokens,
    ...(charge.cacheCreationTokens > 0
      ? {
          cacheCreationTokens: charge.cacheCreationTokens,
          cacheCreationRatio: charge.cacheCreationRatio,
        }
      : {}),
    ...(usage.reasoningTokens ? { reasoningTokens: usage.reasoningTokens } : {}),
    quota: charged,
    reserved: reservation.amount,
    ...leasesOf(reservation),
    ...(p.loweredBy && p.ceiling !== undefined
      ? { loweredCeiling: p.ceiling, loweredBy: p.loweredBy }
      : {}),
    ...(overrun > 0 ? { overrun } : {}),
    ...(ceilingIgnored ? { ceilingIgnored: true } : {}),
    ...(answered.cut ? { streamCut: true } : {}),
    ...(overridden ? { paramOverride: Object.keys(overridden) } : {}),
    ...(p.fallback
      ? { requestedModel: p.fallback.requestedModel, fallbackReason: p.fallback.reason }
      : {}),
    modelRatio: charge.modelRatio,
    completionRatio: charge.completionRatio,
    groupRatio: charge.groupRatio,
    cacheRatio: charge.cacheRatio,
    modelPrice: charge.modelPrice,
    useTimeMs: now - call.startedAt,
    firstTokenMs: stream && firstAt !== null ? firstAt - call.startedAt : null,
    stream,
    estimated: answered.estimated,
    ip: call.ip,
  };
}
