/** The usage receipt (RequestRelayed) of an answered call: what was charged and why. */
import type { ChargeReceipt, RequestRelayed } from '@tollgate/domain';
import { callFacts } from './call-facts';
import { paramOverrideOf } from './param-override';
import type { Answered } from './relay-call';

type Receipt = { -readonly [K in keyof RequestRelayed['data']]: RequestRelayed['data'][K] };

/**
 * The receipt of `answered`, charged `charged` quota (the book's figure: the whole cost, even past
 * the reservation) on the prices of `charge`, settled at `now`. Optional fields appear only when
 * they say something (a cache write, a lowered ceiling, an overrun, a cut stream).
 *
 * Built field by field in the receipt's key order, not from spreads: a literal of ~30 keys made of
 * conditional spreads costs V8 some 14 KiB of garbage a call (a fresh dictionary), this some 0.6.
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
  const r: Partial<Receipt> = callFacts(p, answered.channel.id);
  r.upstreamModel = answered.upstreamModel;
  r.promptTokens = charge.promptTokens;
  r.completionTokens = charge.completionTokens;
  r.cachedTokens = charge.cachedTokens;
  if (charge.cacheCreationTokens > 0) {
    r.cacheCreationTokens = charge.cacheCreationTokens;
    r.cacheCreationRatio = charge.cacheCreationRatio;
  }
  if (usage.reasoningTokens) r.reasoningTokens = usage.reasoningTokens;
  r.quota = charged;
  r.reserved = reservation.amount;
  if (reservation.leaseId) r.leaseId = reservation.leaseId;
  if (reservation.tokenLeaseId) r.tokenLeaseId = reservation.tokenLeaseId;
  if (reservation.budgetLeaseId) r.budgetLeaseId = reservation.budgetLeaseId;
  if (reservation.tokenBudgetLeaseId) r.tokenBudgetLeaseId = reservation.tokenBudgetLeaseId;
  if (p.loweredBy && p.ceiling !== undefined) {
    r.loweredCeiling = p.ceiling;
    r.loweredBy = p.loweredBy;
  }
  if (overrun > 0) r.overrun = overrun;
  if (ceilingIgnored) r.ceilingIgnored = true;
  if (answered.cut) r.streamCut = true;
  if (overridden) r.paramOverride = Object.keys(overridden);
  if (p.fallback) {
    r.requestedModel = p.fallback.requestedModel;
    r.fallbackReason = p.fallback.reason;
  }
  r.modelRatio = charge.modelRatio;
  r.completionRatio = charge.completionRatio;
  r.groupRatio = charge.groupRatio;
  r.cacheRatio = charge.cacheRatio;
  r.modelPrice = charge.modelPrice;
  r.useTimeMs = now - call.startedAt;
  r.firstTokenMs = stream && firstAt !== null ? firstAt - call.startedAt : null;
  r.stream = stream;
  r.estimated = answered.estimated;
  r.ip = call.ip;
  return r as Receipt;
}
