import { useMemo } from 'react';
import { useSessionUser } from '@/features/auth/hooks/use-session-user';
import { useStatus } from '@/features/status/hooks/use-status';
import { buildSidebarItems, type SidebarItem } from '../utils/sidebar-items';

export function useSidebarItems(): SidebarItem[] {
  const user = useSessionUser();
  const status = useStatus();
  const role = user?.role;
  return useMemo(() => buildSidebarItems({ role, status, now: new Date() }), [role, status]);
}
