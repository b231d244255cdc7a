import {
  BILLING_EVENT_TYPES,
  evolveBilling,
  initialBillingState,
  type BillingEvent,
  type BillingState,
} from '@tollgate/domain';

/** Small facts about recorded events that the history, the balance-at rule and the verifier share. */

const BILLING_TYPES: ReadonlySet<string> = new Set(BILLING_EVENT_TYPES);

/**
 * How a billing event moves the balance and the pending invitation earnings: the domain's own fold
 * (evolveBilling) from zero, so the rule of docs/ledger.md lives in one place. Any other event: 0.
 */
export function billingDeltaOf(type: string, data: unknown): BillingState {
  if (!BILLING_TYPES.has(type)) return initialBillingState;
  return evolveBilling(initialBillingState, { type, data } as BillingEvent);
}

/** The balance part: grants and aff transfers credit their amount, an admin edit its delta. */
export function quotaDeltaOf(type: string, data: unknown): number {
  return billingDeltaOf(type, data).quota;
}
