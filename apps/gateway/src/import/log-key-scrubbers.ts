import { channelKeySecrets, SecretScrubber } from '@tollgate/relay';
import { mapChannelRow } from './channel-mapping';
import { isSkipped } from './import-mapping';
import type { SourceDatabase } from './source-database';

/**
 * The keys of the source's channels, per source channel id. The source's error rows (new-api's
 * type 5, one-api's channel tests) quote the provider as it answered, the channel's key included:
 * it is masked before the row becomes an event.
 */
export async function sourceChannelScrubbers(
  source: SourceDatabase,
  importedAt: string,
): Promise<ReadonlyMap<number, SecretScrubber>> {
  const scrubbers = new Map<number, SecretScrubber>();
  if (!source.hasTable('channels')) return scrubbers;
  for await (const row of source.rows('channels')) {
    const mapped = mapChannelRow(source.project, row, importedAt);
    if (isSkipped(mapped)) continue;
    const { channel, extraChannels } = mapped;
    const keys = [channel.key, ...extraChannels.map((extra) => extra.key)];
    const scrubber = SecretScrubber.of(
      keys.flatMap((key) => channelKeySecrets(channel.config.type, key)),
    );
    if (scrubber.active) scrubbers.set(channel.channelId, scrubber);
  }
  return scrubbers;
}
