import { useMemo } from 'react';
import { useSessionUser } from '@/features/auth';
import { useStatus } from '@/features/status';
import { buildSidebarItems, type SidebarItem } from '../utils/sidebar-items';

export function useSidebarItems(): SidebarItem[] {
  const user = useSessionUser();
  const status = useStatus();
  const role = user?.role;
  return useMemo(() => buildSidebarItems({ role, status, now: new Date() }), [role, status]);
}
