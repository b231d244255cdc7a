import { setFlagsFromString } from 'node:v8';
import { v8FlagGiven } from './v8-flag-given';

/**
 * How far V8 lets the relay process's heap grow past what its last full collection kept, in
 * percent. By default V8 picks the factor itself, up to 4× for a program that allocates fast: under
 * load the relay's RSS reached ~400 MiB, most of it garbage waiting for a full collection (its live
 * heap is ~60 MiB). At 30 % the peak was ~225 MiB, for 24 full collections per 100 000 requests
 * instead of 3; they mark on V8's helper threads, and the relay's CPU per request stayed within the
 * noise (docs/performance.md, "The relay's heap growth bounded").
 */
export const HEAP_GROWING_PERCENT = 30;

const FLAG = '--heap-growing-percent';

/** The V8 flag to set, or null when the process was started with its own (the operator's word). */
export function heapGrowthFlag(execArgv: readonly string[]): string | null {
  return v8FlagGiven(execArgv, FLAG) ? null : `${FLAG}=${HEAP_GROWING_PERCENT}`;
}

/**
 * Called by the relay process's entry point. V8's flags are the process's: its worker threads (the
 * console's reads, the event store's writer) grow their small heaps by the same factor. The
 * projector child keeps V8's own factor: given this one too, its peak stayed at 166–168 MiB.
 */
export function boundHeapGrowth(): void {
  const flag = heapGrowthFlag(process.execArgv);
  if (flag) setFlagsFromString(flag);
}
