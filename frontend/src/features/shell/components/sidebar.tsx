import { NavLink, ScrollArea, Stack } from '@mantine/core';
import { IconChevronsLeft, IconChevronsRight } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSidebarItems } from '../hooks/use-sidebar-items';
import { SidebarGroup, SidebarLink } from './sidebar-entries';

interface SidebarProps {
  /** Desktop mini mode: icons only, labels in tooltips. */
  collapsed: boolean;
  onToggleCollapse?: () => void;
  /** Called after a click on an item (the mobile drawer closes). */
  onNavigate: () => void;
}

export function Sidebar({ collapsed, onToggleCollapse, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const items = useSidebarItems();

  return (
    <Stack h="100%" gap={0} justify="space-between">
      <ScrollArea type="scroll" style={{ flex: 1 }}>
        <nav aria-label={t('shell.navigation')}>
          {items.map((item) =>
            item.children ? (
              <SidebarGroup
                key={item.key}
                item={item}
                entries={item.children}
                collapsed={collapsed}
                onNavigate={onNavigate}
              />
            ) : (
              <SidebarLink
                key={item.key}
                item={item}
                collapsed={collapsed}
                onNavigate={onNavigate}
              />
            ),
          )}
        </nav>
      </ScrollArea>
      {onToggleCollapse && (
        <NavLink
          component="button"
          onClick={onToggleCollapse}
          leftSection={collapsed ? <IconChevronsRight size={20} /> : <IconChevronsLeft size={20} />}
          label={collapsed ? undefined : t('shell.collapseSidebar')}
          aria-label={collapsed ? t('shell.expandSidebar') : t('shell.collapseSidebar')}
        />
      )}
    </Stack>
  );
}
