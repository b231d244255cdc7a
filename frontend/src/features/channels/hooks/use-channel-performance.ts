import { useQuery } from '@tanstack/react-query';
import type { ChannelPerformanceDto } from '@tollgate/contracts';
import { useMemo } from 'react';
import { channelPerformanceQueries } from '../api/channel-performance.api';
import { useLivePerformance } from './use-live-performance';

/** The last hour's performance rows by channel id (one per model), live. */
export function useChannelPerformance(): ReadonlyMap<number, ChannelPerformanceDto[]> {
  const query = useQuery(channelPerformanceQueries.window());
  useLivePerformance();
  return useMemo(() => {
    const byChannel = new Map<number, ChannelPerformanceDto[]>();
    for (const row of query.data ?? []) {
      const rows = byChannel.get(row.channel_id) ?? [];
      rows.push(row);
      byChannel.set(row.channel_id, rows);
    }
    return byChannel;
  }, [query.data]);
}
