import {
  CancelledError,
  DeadlineExceededError,
  NotLeaderError,
  UnavailableError,
} from '@eventstore/db-client';

/** Backoff for transient failures: 100 ms doubling to 5 s, then onError after maxAttempts. */
export interface RetryPolicy {
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { initialDelayMs: 100, maxDelayMs: 5000, maxAttempts: 8 };

/** gRPC status codes the client leaves on errors it does not map: UNAVAILABLE, DEADLINE_EXCEEDED. */
const TRANSIENT_CODES = new Set([4, 14]);

/**
 * A failure worth retrying: the server or the connection, not the request. A node that lost
 * leadership answers NotLeaderError, and a call it dropped on the way surfaces as CancelledError;
 * the cluster elects a new leader within seconds, so both pass like an unavailable server.
 */
export function isTransient(error: unknown): boolean {
  if (
    error instanceof UnavailableError ||
    error instanceof DeadlineExceededError ||
    error instanceof NotLeaderError ||
    error instanceof CancelledError
  ) {
    return true;
  }
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === 'number' && TRANSIENT_CODES.has(e.code)) return true;
  if (e?.code === 'ECONNRESET' || e?.code === 'EPIPE') return true;
  return typeof e?.message === 'string' && /ECONNRESET|connection reset/i.test(e.message);
}

export function retryDelay(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxDelayMs, policy.initialDelayMs * 2 ** (attempt - 1));
}

/**
 * Runs `action` until it succeeds, retrying transient failures with backoff. `action` must be safe
 * to repeat (reads from a cursor the caller keeps). `cancelled` stops the wait early.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  action: () => Promise<T>,
  cancelled: () => boolean = () => false,
): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await action();
    } catch (error) {
      if (!isTransient(error) || attempt >= policy.maxAttempts || cancelled()) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelay(policy, attempt)));
      if (cancelled()) throw error;
    }
  }
}
