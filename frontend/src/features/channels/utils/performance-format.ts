const PERCENT = 100;
const MS_PER_SECOND = 1000;

/** A histogram bound: `338 ms`, `1.7 s`; `—` without samples. */
export function formatLatency(ms: number | null): string {
  if (ms === null) return '—';
  return ms < MS_PER_SECOND ? `${ms} ms` : `${(ms / MS_PER_SECOND).toFixed(1)} s`;
}

/** A ratio as a percentage with one decimal: 0.125 → `12.5%`. */
export function formatRatio(ratio: number): string {
  return `${(ratio * PERCENT).toFixed(1)}%`;
}
