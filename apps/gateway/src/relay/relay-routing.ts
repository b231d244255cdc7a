import { ChannelStatus } from '@tollgate/contracts';
import type { RelayError } from '@tollgate/relay';
import type { Lang } from '../shared/i18n/messages';
import type { Caller } from './relay-admission';
import { relayError } from './relay-http';
import type { RelayToken, RoutedChannel, RoutingTablePort } from './relay-ports';
import type { RelaySettings } from './relay-settings';

/**
 * The routing checks every relay call makes (the main relay, the task relays, the model list):
 * which group bills it, the token's model limits, the pinned channel, no channel. Pure: they read
 * what they are given and allocate only the error they answer.
 */

/** The group whose ratio and channels apply: `requested` when the user may use it, else theirs. */
export function groupFor(
  caller: Pick<Caller, 'user'>,
  requested: string,
  settings: RelaySettings,
): string {
  const user = caller.user;
  if (requested === '' || requested === user.group) return user.group;
  const usable =
    Object.prototype.hasOwnProperty.call(settings.usableGroups, requested) &&
    Object.prototype.hasOwnProperty.call(settings.price.groupRatio, requested);
  return usable ? requested : user.group;
}

/** The token's model limits (task model names count too, as new-api). */
export function modelRefusal(
  lang: Lang,
  token: RelayToken | undefined,
  model: string,
): RelayError | undefined {
  if (!token?.modelLimitsEnabled || token.modelLimits.includes(model)) return undefined;
  return relayError({
    lang,
    status: 403,
    key: 'relay.model_not_allowed',
    params: { model },
    type: 'permission_error',
    code: 'model_not_allowed',
  });
}

/** The admin's pinned channel when it exists and is enabled. */
export function pinnedChannel(
  routing: Pick<RoutingTablePort, 'channel'>,
  id: number,
): RoutedChannel | undefined {
  const channel = routing.channel(id);
  return channel && channel.status === ChannelStatus.Enabled ? channel : undefined;
}

/** No enabled channel serves group × model (before any attempt, or every candidate cooling). */
export function noChannel(lang: Lang, group: string, model: string): RelayError {
  return relayError({
    lang,
    status: 503,
    key: 'relay.no_channel',
    params: { group, model },
    type: 'tollgate_error',
    code: 'model_not_found',
  });
}

/** Why a call has no first channel: its pinned one is missing or disabled (403), or none serves. */
export function unroutable(
  lang: Lang,
  caller: Pick<Caller, 'pinnedChannelId'>,
  group: string,
  model: string,
): RelayError {
  const pinned = caller.pinnedChannelId;
  if (pinned === undefined) return noChannel(lang, group, model);
  return relayError({
    lang,
    status: 403,
    key: 'relay.pinned_channel_invalid',
    params: { id: pinned },
    type: 'permission_error',
    code: 'channel_invalid',
  });
}

/** The pinned channel is usable, or some channel serves group × model; else why not. */
export function routeRefusal(
  routing: Pick<RoutingTablePort, 'channel' | 'candidates'>,
  lang: Lang,
  caller: Pick<Caller, 'pinnedChannelId'>,
  group: string,
  model: string,
): RelayError | undefined {
  const pinned = caller.pinnedChannelId;
  const routable =
    pinned !== undefined
      ? pinnedChannel(routing, pinned) !== undefined
      : routing.candidates(group, model).length > 0;
  return routable ? undefined : unroutable(lang, caller, group, model);
}
