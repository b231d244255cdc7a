import { selectChannel, type RelayError } from '@tollgate/relay';
import { relayError } from '../relay/relay-http';
import type { RoutedChannel, RoutingTablePort } from '../relay/relay-ports';
import type { TaskRequest } from './task-request';

/** The token's model limits, as every relay call: the task model names count (new-api). */
export function modelRefusal(request: TaskRequest, model: string): RelayError | undefined {
  const token = request.caller.token;
  if (!token?.modelLimitsEnabled || token.modelLimits.includes(model)) return undefined;
  return relayError(
    request.lang,
    403,
    'relay.model_not_allowed',
    { model },
    'permission_error',
    'model_not_allowed',
  );
}

/** No enabled channel serves group × model: the relay's 503. */
export function noTaskChannel(request: TaskRequest, group: string, model: string): RelayError {
  return relayError(
    request.lang,
    503,
    'relay.no_channel',
    { group, model },
    'tollgate_error',
    'model_not_found',
  );
}

/**
 * The channel of attempt `attempt`: the admin's pinned one (first attempt only, enabled), else by
 * priority and weight among the group's channels for the model, skipping those already tried.
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
  if (pinned !== undefined) {
    const channel = attempt === 0 ? routing.channel(pinned) : undefined;
    return channel && channel.status === 1 ? channel : undefined;
  }
  return selectChannel(routing.candidates(group, model), {
    attempt,
    tried: new Set(tried),
    isCooling: () => false,
    rng: Math.random,
  });
}
