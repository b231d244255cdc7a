import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSessionUser } from '@/features/auth';
import { openChangeFeed } from '@/lib/socket';
import { TOPIC_QUERY_KEYS } from './live-updates';

/** While someone is signed in, server pushes invalidate the matching queries. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const userId = useSessionUser()?.id;

  useEffect(() => {
    if (userId === undefined) return;
    return openChangeFeed(userId, (event) => {
      for (const queryKey of TOPIC_QUERY_KEYS[event.topic] ?? []) {
        void queryClient.invalidateQueries({ queryKey });
      }
    });
  }, [userId, queryClient]);
}
