/**
 * Texts recorded before the relay masked keys (status reasons, test messages) may quote a channel
 * key in clear; the log keeps them so. What reads them back (the channels read model, the history)
 * masks every key the channel has had, opened from the sealed copies its events carry.
 */
import type { SealedSecret } from '@tollgate/domain';
// The module, not the relay's barrel: the projector process that runs the channels read model
// would otherwise load the whole relay, the tokenizer's ranks (~65 MiB) among it.
import { channelKeySecrets } from '@tollgate/relay/secrets/channel-secrets';
import { SecretScrubber } from '@tollgate/relay/secrets/secret-scrubber';

/** Opens a sealed channel key (the server's SecretBox). */
export type ChannelKeyOpener = (sealed: SealedSecret) => string;

/** The sealed key an event carries (ChannelCreated, ChannelImported, a ChannelUpdated of the key). */
export function sealedKeyOf(data: unknown): SealedSecret | undefined {
  const key = (data as { key?: unknown } | null)?.key;
  if (key === null || typeof key !== 'object') return undefined;
  const { cipher, hash } = key as Partial<SealedSecret>;
  return typeof cipher === 'string' && typeof hash === 'string' ? { cipher, hash } : undefined;
}

/** A scrubber of every key in `sealed`, read in the format of channel type `type`. */
export function sealedKeysScrubber(
  type: number,
  sealed: readonly SealedSecret[],
  open: ChannelKeyOpener,
): SecretScrubber {
  let scrubber = SecretScrubber.NONE;
  for (const one of sealed) {
    let key: string;
    try {
      key = open(one);
    } catch {
      continue; // sealed under another server secret: nothing this process can mask with
    }
    scrubber = scrubber.with(SecretScrubber.of(channelKeySecrets(type, key)));
  }
  return scrubber;
}
