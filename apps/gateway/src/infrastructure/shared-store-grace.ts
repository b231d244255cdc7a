import type { AppConfig } from '../config/app-config';

/**
 * Start-up repairs (half-done registrations, credits a crash left owed) must not finish another
 * process's work in flight. On the embedded store this process is alone (the DATA_DIR lock) unless
 * SCALE_OUT=on; with EventStoreDB or in scale-out other processes may be between two appends, so
 * only work older than this counts.
 */
export const SHARED_STORE_GRACE_MS = 60_000;

export const sharedStoreGraceMs = (
  config: Pick<AppConfig, 'eventStoreUrl' | 'scaleOut'>,
): number => (config.eventStoreUrl || config.scaleOut ? SHARED_STORE_GRACE_MS : 0);
