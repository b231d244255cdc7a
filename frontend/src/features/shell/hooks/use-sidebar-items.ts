import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSessionUser } from '@/features/auth';
import { chatTargets } from '@/features/chat';
import { useStatus } from '@/features/status';
import { notifyError } from '@/lib/notify';
import { buildSidebarItems, type SidebarItem } from '../utils/sidebar-items';

export function useSidebarItems(): SidebarItem[] {
  const user = useSessionUser();
  const status = useStatus();
  const role = user?.role;
  const { t } = useTranslation();
  const chatsUnreadable = chatTargets(status) === null;
  // Chat data the submenu cannot be built from: say so once.
  useEffect(() => {
    if (chatsUnreadable) notifyError(t('chat.parseFailed'), 'chat-parse-failed');
  }, [chatsUnreadable, t]);
  return useMemo(() => buildSidebarItems({ role, status, now: new Date() }), [role, status]);
}
