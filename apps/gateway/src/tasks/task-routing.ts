import { selectChannel } from '@tollgate/relay';
import type { RoutedChannel, RoutingTablePort } from '../relay/relay-ports';
import { pinnedChannel } from '../relay/relay-routing';
import type { TaskRequest } from './task-request';

/**
 * The channel of attempt `attempt`: the admin's pinned one (first attempt only, enabled), else by
 * priority and weight among the group's channels for the model, skipping those already tried.
 * Nothing on the first attempt: the relay's `unroutable` answer.
 */
export function pickTaskChannel(
  routing: RoutingTablePort,
  request: TaskRequest,
  group: string,
  model: string,
  attempt = 0,
  tried: readonly number[] = [],
): RoutedChannel | undefined {
  const pinned = request.caller.pinnedChannelId;
  if (pinned !== undefined) return attempt === 0 ? pinnedChannel(routing, pinned) : undefined;
  return selectChannel(routing.candidates(group, model), {
    attempt,
    tried: new Set(tried),
    isCooling: () => false,
    rng: Math.random,
  });
}
