import { useState } from 'react';
import { useStatus } from '@/features/status';

/** Quota units per dollar when the server's status does not give one. */
const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Quota units ↔ what the user types: dollars when currency display is on. */
function useThresholdUnit() {
  const { display_in_currency, quota_per_unit } = useStatus();
  const perUnit = display_in_currency ? quota_per_unit || DEFAULT_QUOTA_PER_UNIT : 1;
  return {
    toDisplay: (quota: number) => quota / perUnit,
    toQuota: (value: number) => Math.round(value * perUnit),
    prefix: display_in_currency ? '$' : undefined,
    decimals: display_in_currency ? 2 : 0,
  };
}

/**
 * The low-balance threshold: kept in quota units (what is saved), shown and typed in the display
 * unit. What was last typed is shown while it still means the kept quota ("1." mid-typing).
 */
export function useThresholdInput() {
  const unit = useThresholdUnit();
  const [quota, setQuota] = useState<number | null>(null);
  const [draft, setDraft] = useState<number | string>('');

  const draftMatches =
    draft === '' ? quota === null : quota !== null && unit.toQuota(Number(draft)) === quota;
  const input = draftMatches ? draft : quota === null ? '' : unit.toDisplay(quota);

  return {
    /** The threshold in quota units; null when none is set. */
    quota,
    /** What the input shows. */
    input,
    prefix: unit.prefix,
    decimals: unit.decimals,
    change: (value: number | string) => {
      setDraft(value);
      setQuota(value === '' ? null : unit.toQuota(Number(value)));
    },
    /** Starts again from a saved quota, whatever the display unit. */
    reset: (saved: number | null) => {
      setQuota(saved);
      setDraft('');
    },
  };
}
