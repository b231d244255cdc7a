/** Small facts about recorded events that the history, the balance-at rule and the verifier share. */

/** When it happened: the metadata's occurredAt, else when it was recorded. */
export function eventTimeMs(event: {
  readonly metadata: Record<string, unknown>;
  readonly recordedAt: Date;
}): number {
  const at = event.metadata['occurredAt'];
  const parsed = typeof at === 'string' ? Date.parse(at) : NaN;
  return Number.isFinite(parsed) ? parsed : event.recordedAt.getTime();
}

/**
 * How a billing event moves the balance (docs/ledger.md): grants and aff transfers credit their
 * amount, an admin edit folds as its delta; invitation rewards are pending earnings, not balance.
 */
export function quotaDeltaOf(type: string, data: unknown): number {
  const d = (data ?? {}) as Record<string, unknown>;
  const n = (v: unknown) => (typeof v === 'number' ? v : 0);
  switch (type) {
    case 'QuotaGranted':
    case 'AffQuotaTransferred':
      return n(d['amount']);
    case 'QuotaAdjusted':
      return n(d['delta']);
    default:
      return 0;
  }
}
