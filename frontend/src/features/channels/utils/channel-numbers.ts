export const MIN_PRIORITY = -999;
export const MIN_WEIGHT = 0;

/**
 * Priority minimum -999, weight minimum 0 (negatives clamp to 0), empty values are
 * ignored (null = leave the stored value alone). Fractions are dropped: both are integers.
 */
export function normalizeChannelNumber(
  raw: string | number | null | undefined,
  minimum: number,
): number | null {
  if (raw === null || raw === undefined) return null;
  const text = String(raw).trim();
  if (text === '' || text === '-') return null;
  const value = Number(text);
  if (!Number.isFinite(value)) return null;
  return Math.max(minimum, Math.trunc(value));
}
