import type { QueryKey } from '@tanstack/react-query';
import type { ChangeTopic } from '@tollgate/contracts';
import { channelQueries } from '@/features/channels';
import { selfQueries } from '@/features/setting';
import { redemptionQueries } from '@/features/redemptions';
import { statusQueries } from '@/features/status';
import { tokenQueries } from '@/features/tokens';
import { groupQueries, userQueries } from '@/features/users';

/** Which cached queries a `changed` push makes stale; the socket never carries data itself. */
export const TOPIC_QUERY_KEYS: Record<ChangeTopic, QueryKey[]> = {
  self: [selfQueries.all],
  users: [userQueries.all],
  // Groups are derived from the GroupRatio option.
  options: [['options'], groupQueries.all],
  status: [statusQueries.all],
  tokens: [tokenQueries.all],
  redemptions: [redemptionQueries.all],
  // The log page follows its pushes itself: only with its live toggle on, throttled.
  logs: [],
  channels: [channelQueries.all],
  // The data dashboard follows its pushes itself, throttled.
  usage: [],
  // The dashboard's card and the channel list follow their pushes themselves, throttled.
  performance: [],
  // The drawing and task logs follow their pushes themselves, throttled.
  tasks: [],
};
