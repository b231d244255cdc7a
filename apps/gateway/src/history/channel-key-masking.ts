import type { RecordedEvent } from '@tollgate/event-store';
import {
  type ChannelKeyOpener,
  sealedKeyOf,
  sealedKeysScrubber,
} from '../channels/sealed-key-scrubber';
import type { DescribedEvent } from './describe-event';

/** The channel type an event sets (creation, import, or an update of the type), if any. */
function typeSet(event: RecordedEvent): number | undefined {
  const data = event.data as { config?: { type?: unknown }; changes?: { type?: unknown } };
  const type = data.config?.type ?? data.changes?.type;
  return typeof type === 'number' ? type : undefined;
}

/**
 * A channel stream's described events with every key the channel has had masked in their
 * reasons and values: status reasons and test messages recorded before the relay masked keys
 * quote the provider's error as it came (the log is never rewritten).
 */
export function maskChannelKeys(
  events: readonly RecordedEvent[],
  described: readonly DescribedEvent[],
  openKey: ChannelKeyOpener,
): readonly DescribedEvent[] {
  const sealed = events.flatMap((event) => sealedKeyOf(event.data) ?? []);
  if (sealed.length === 0) return described;
  const type = events.reduce((last, event) => typeSet(event) ?? last, 0);
  const scrubber = sealedKeysScrubber(type, sealed, openKey);
  if (!scrubber.active) return described;
  return described.map((item) => ({
    ...item,
    reason: scrubber.text(item.reason),
    changes: item.changes.map((change) => ({
      ...change,
      before: scrubber.json(change.before),
      after: scrubber.json(change.after),
    })),
  }));
}
