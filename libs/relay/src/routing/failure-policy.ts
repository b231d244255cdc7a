/**
 * What a failed attempt means: retry on another channel, cool the channel down, disable it, and
 * which status the client sees. The rules of one-api and new-api, plus a failure
 * budget for 5xx/timeouts that neither has (off by default).
 */
import { DEFAULT_DISABLE_KEYWORDS, failureDisablesChannel } from '@tollgate/domain';

/** An attempt that did not produce an answer for the client. */
export type AttemptFailure =
  | {
      readonly kind: 'http';
      readonly status: number;
      readonly message: string;
      readonly type: string;
      readonly code: string;
    }
  /** Connection refused/reset, DNS: nothing reached the upstream model. */
  | { readonly kind: 'network'; readonly message: string }
  /** No answer in time: the upstream may have done (and billed) the work. */
  | { readonly kind: 'timeout'; readonly message: string };

/** new-api's default AutomaticRetryStatusCodes: every non-2xx except 400, 408, 504 and 524. */
export const DEFAULT_RETRY_STATUS_RANGES =
  '100-199,300-399,401-407,409-499,500-503,505-523,525-599';

export type StatusRanges = ReadonlyArray<readonly [number, number]>;

/** "401-407,429,500-599" → ranges; bad pieces are skipped. */
export function parseStatusRanges(text: string): StatusRanges {
  const ranges: Array<[number, number]> = [];
  for (const piece of text.split(',')) {
    const m = /^\s*(\d{3})\s*(?:-\s*(\d{3})\s*)?$/.exec(piece);
    if (!m) continue;
    const low = Number(m[1]);
    const high = m[2] === undefined ? low : Number(m[2]);
    if (low <= high) ranges.push([low, high]);
  }
  return ranges;
}

const DEFAULT_RANGES = parseStatusRanges(DEFAULT_RETRY_STATUS_RANGES);
/** Timeouts are never retried: the first upstream may still be working (and billing). */
const NEVER_RETRY = new Set([504, 524]);

export function shouldRetry(
  failure: AttemptFailure,
  ctx: { readonly retriesLeft: number; readonly pinned: boolean; readonly ranges?: StatusRanges },
): boolean {
  if (ctx.retriesLeft <= 0 || ctx.pinned) return false;
  if (failure.kind === 'network') return true;
  if (failure.kind === 'timeout') return false;
  if (NEVER_RETRY.has(failure.status)) return false;
  return (ctx.ranges ?? DEFAULT_RANGES).some(
    ([low, high]) => failure.status >= low && failure.status <= high,
  );
}

/**
 * The reason to disable a channel for this failure, or undefined. The rules are the domain's
 * (`failureDisablesChannel`, shared with the channels module's tests: 401, 403 on Gemini, the
 * invalid-key / deactivated / billing codes, the auth and quota types, the keywords); this adds
 * the reason text. Network errors and timeouts never disable on their own (see FailureBudget).
 */
export function disableReason(
  failure: AttemptFailure,
  channelType: number,
  keywords: readonly string[] = DEFAULT_DISABLE_KEYWORDS,
  sentByClient?: (keyword: string) => boolean,
): string | undefined {
  if (
    failure.kind !== 'http' ||
    !failureDisablesChannel(failure, channelType, keywords, sentByClient)
  )
    return undefined;
  return `status ${failure.status}${failure.code ? `, code ${failure.code}` : ''}: ${failure.message}`;
}

/** Parses the keyword option (one per line). */
export function parseKeywords(text: string): string[] {
  return text
    .split('\n')
    .map((k) => k.trim())
    .filter((k) => k !== '');
}

/**
 * Statuses that judge the request, not the channel (malformed, too large, unprocessable): they
 * neither cool the channel nor count against it, or any client could push a model's traffic off
 * its first-choice channels (onto dearer fallback tiers) by sending bad requests.
 */
const REQUEST_FAULT_STATUSES = new Set([400, 413, 422]);

/** Whether a failure should cool the channel × model (the next requests prefer other channels). */
export function failureCoolsChannel(failure: AttemptFailure): boolean {
  return failure.kind !== 'http' || !REQUEST_FAULT_STATUSES.has(failure.status);
}

/** Failures a budget counts: upstream 5xx and timeouts (not 4xx, not local errors). */
export function countsAgainstBudget(failure: AttemptFailure): boolean {
  return failure.kind !== 'http' || failure.status >= 500;
}

/**
 * N failures of a channel × model within a window → disable (configurable, off when limit is 0).
 * Kept per key as the timestamps of the last `limit` failures (a ring), so memory is bounded.
 */
export class FailureBudget {
  private readonly rings = new Map<string, number[]>();

  constructor(private readonly now: () => number) {}

  /** Records one failure; true when it exhausts the budget (the caller disables the channel). */
  record(channelId: number, model: string, limit: number, windowMs: number): boolean {
    if (limit <= 0 || windowMs <= 0) return false;
    const key = `${channelId}\u0000${model}`;
    const now = this.now();
    const ring = (this.rings.get(key) ?? []).filter((t) => t > now - windowMs);
    ring.push(now);
    while (ring.length > limit) ring.shift();
    this.rings.set(key, ring);
    if (ring.length >= limit) {
      this.rings.delete(key);
      return true;
    }
    return false;
  }

  /** A success resets the channel × model's count. */
  succeeded(channelId: number, model: string): void {
    this.rings.delete(`${channelId}\u0000${model}`);
  }
}

/**
 * The channel's status_code_mapping ({"429":"500"}) applied to what the client sees; entries that
 * are not three-digit codes are ignored.
 */
export function mapStatusCode(status: number, mapping: Readonly<Record<string, string>>): number {
  const target = Object.prototype.hasOwnProperty.call(mapping, String(status))
    ? mapping[String(status)]
    : undefined;
  if (target === undefined) return status;
  const n = Number(String(target).trim());
  return Number.isInteger(n) && n >= 100 && n <= 599 ? n : status;
}
