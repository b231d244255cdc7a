import { useCallback, useState } from 'react';
import { useStatus } from '@/features/status';
import { readString, StorageKey, writeString } from '@/lib/storage';

/** Desktop collapse: the user's last choice, else the DefaultCollapseSidebar option. */
export function useSidebarCollapse(): { collapsed: boolean; toggle: () => void } {
  const { default_collapse_sidebar } = useStatus();
  const [stored, setStored] = useState(() => readString(StorageKey.sidebarCollapsed));
  const collapsed = stored === null ? default_collapse_sidebar : stored === 'true';

  const toggle = useCallback(() => {
    const next = String(!collapsed);
    writeString(StorageKey.sidebarCollapsed, next);
    setStored(next);
  }, [collapsed]);

  return { collapsed, toggle };
}
