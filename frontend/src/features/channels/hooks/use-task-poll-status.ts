import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChannelDto } from '@tollgate/contracts';
import { useEffect, useMemo } from 'react';
import { useChangeTopic } from '@/hooks/use-change-topic';
import { throttle } from '@/utils/throttle';
import { TASK_CHANNEL_TYPES, taskPollQueries, type ChannelPollState } from '../api/channels.api';

/** However busy the task topic is, poll-status is refetched at most this often. */
export const TASK_POLL_REFRESH_MS = 2_000;

/**
 * The task poller's state of the listed channels, by channel id: asked only while the list holds a
 * Midjourney or Suno channel, every 30 s and after `tasks` / `channels` pushes.
 */
export function useTaskPollStatus(
  channels: Pick<ChannelDto, 'type'>[] | undefined,
): ReadonlyMap<number, ChannelPollState> {
  const queryClient = useQueryClient();
  const enabled = (channels ?? []).some((channel) => TASK_CHANNEL_TYPES.has(channel.type));
  const query = useQuery(taskPollQueries.status(enabled));

  const refresh = useMemo(
    () =>
      throttle(() => {
        void queryClient.invalidateQueries({ queryKey: taskPollQueries.all });
      }, TASK_POLL_REFRESH_MS),
    [queryClient],
  );
  useEffect(() => () => refresh.cancel(), [refresh]);
  useChangeTopic('tasks', refresh);
  useChangeTopic('channels', refresh);

  const data = enabled ? query.data : undefined;
  return useMemo(
    () => new Map((data ?? []).map((state) => [state.channel_id, state] as const)),
    [data],
  );
}
