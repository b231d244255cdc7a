import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useSyncExternalStore } from 'react';
import { useSessionUser } from '@/features/auth';
import { publishChange } from '@/lib/change-bus';
import { getSessionRenewals, subscribeSession } from '@/lib/session';
import { openChangeFeed } from '@/lib/socket';
import { TOPIC_QUERY_KEYS } from './live-updates';

/** While someone is signed in, server pushes invalidate the matching queries. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  const userId = useSessionUser()?.id;
  // A renewed cookie (own password change) reopens the socket: the old session's was closed.
  const renewals = useSyncExternalStore(subscribeSession, getSessionRenewals, getSessionRenewals);

  useEffect(() => {
    if (userId === undefined) return;
    return openChangeFeed(userId, (event) => {
      for (const queryKey of TOPIC_QUERY_KEYS[event.topic] ?? []) {
        void queryClient.invalidateQueries({ queryKey });
      }
      publishChange(event);
    });
  }, [userId, renewals, queryClient]);
}
