import { setFlagsFromString } from 'node:v8';
import { v8FlagGiven, v8SwitchGiven } from './v8-flag-given';

/**
 * How far V8 lets the relay process's heap grow past what its last full collection kept, in
 * percent. By default V8 picks the factor itself, up to 4× for a program that allocates fast: under
 * load the relay's RSS reached ~400 MiB, most of it garbage waiting for a full collection (its live
 * heap is ~60 MiB). At 30 % the peak was ~225 MiB, for 24 full collections per 100 000 requests
 * instead of 3; they mark on V8's helper threads, and the relay's CPU per request stayed within the
 * noise (docs/performance-journal.md, "The relay's heap growth bounded").
 */
export const HEAP_GROWING_PERCENT = 30;

const HEAP_GROWING = '--heap-growing-percent';

/**
 * V8's allocation-site pretenuring, off. V8 allocates straight into the old generation the objects
 * of an allocation site whose objects mostly outlived a scavenge. Node's `once` (its state object
 * holds the emitter) can become such a site while the gateway starts, depending on where the
 * scavenges fall. A request's `res.once('close', …)` then puts a state in the old generation that
 * points at the young response; after the request that dead state keeps the response, its request
 * and all they reach alive through every scavenge until a full collection. Measured in that state:
 * 2–3 MiB copied and promoted per scavenge at any rate, pauses 4–5× longer, twice the full
 * collections (docs/performance-journal.md, "Pretenuring off").
 */
const PRETENURING = 'allocation-site-pretenuring';

/** The V8 flags to set, less those the process was started with (the operator's word). */
export function relayHeapFlags(execArgv: readonly string[]): string[] {
  const flags: string[] = [];
  if (!v8FlagGiven(execArgv, HEAP_GROWING)) flags.push(`${HEAP_GROWING}=${HEAP_GROWING_PERCENT}`);
  if (!v8SwitchGiven(execArgv, PRETENURING)) flags.push(`--no-${PRETENURING}`);
  return flags;
}

/**
 * Called first by the relay process's entry point. V8's flags are the process's: its worker threads
 * (the console's reads, the event store's writer) get them too. The projector child keeps V8's own
 * (its flags are projector-node-flags.ts).
 */
export function setRelayHeapFlags(): void {
  for (const flag of relayHeapFlags(process.execArgv)) setFlagsFromString(flag);
}
