import { v8FlagGiven } from '../v8-flag-given';

/**
 * The projector child's young generation: each of V8's two semi-spaces holds at most this many MiB
 * (V8's own maximum for a 64-bit process is 16). The child's garbage is a receipt's decode and its
 * read-model writes, short-lived at any size: at 4 its peak RSS under saturation fell from ~113 to
 * ~92 MiB, for the same scavenges and CPU per receipt within the noise
 * (docs/performance-journal.md, "The projector's young generation and the read store's page
 * cache"). The relay process keeps V8's maximum: with 4 its CPU per request rose 3–9 %.
 */
export const PROJECTOR_SEMI_SPACE_MIB = 4;

const FLAG = '--max-semi-space-size';

/**
 * The node flags the gateway starts its projector child with. None when `NODE_OPTIONS`, which the
 * child inherits, sets the size itself (the operator's word; a flag on the command line would win
 * over it).
 */
export function projectorNodeFlags(nodeOptions: string | undefined): string[] {
  return v8FlagGiven((nodeOptions ?? '').split(/\s+/), FLAG)
    ? []
    : [`${FLAG}=${PROJECTOR_SEMI_SPACE_MIB}`];
}
