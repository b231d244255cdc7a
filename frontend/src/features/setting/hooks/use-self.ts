import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getSessionUser, setSessionUser } from '@/lib/session';
import { selfQueries } from '../api/self.api';

/** GET /api/user/self; keeps the locally stored user (name, role, group) in step with it. */
export function useSelf() {
  const query = useQuery(selfQueries.profile());
  const { data } = query;

  useEffect(() => {
    const stored = getSessionUser();
    if (!data || !stored || stored.id !== data.id) return;
    const changed =
      stored.username !== data.username ||
      stored.display_name !== data.display_name ||
      stored.role !== data.role ||
      stored.status !== data.status ||
      stored.group !== data.group;
    if (changed) setSessionUser(data);
  }, [data]);

  return query;
}
