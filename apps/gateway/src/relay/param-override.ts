/**
 * A channel's parameter override on the body sent upstream: its top-level members replace the
 * body's (no deep merge), in the channel's own protocol, after every conversion and before any
 * signing.
 */
import { withFields } from '@tollgate/domain';
import { parseJsonObject } from '@tollgate/relay';
import type { Prepared } from './relay-call';
import type { RoutedChannel } from './relay-ports';

type Override = Readonly<Record<string, unknown>>;

/**
 * The override an attempt on `channel` applies, undefined when none: multipart bodies are not
 * JSON, and global pass-through sends the client's bytes as they came (as new-api does).
 */
export function paramOverrideOf(p: Prepared, channel: RoutedChannel): Override | undefined {
  if (p.boundary !== undefined || p.settings.providers.passThrough) return undefined;
  return Object.keys(channel.paramOverride).length > 0 ? channel.paramOverride : undefined;
}

/** `body` with the override's members set; as it is when it is not a JSON object. */
export function withParamOverride(body: Buffer, override: Override): Buffer {
  const parsed = parseJsonObject(body);
  return parsed ? Buffer.from(JSON.stringify(withFields(parsed, override))) : body;
}
