import { Menu, NavLink, ScrollArea, Stack, Tooltip } from '@mantine/core';
import { IconChevronsLeft, IconChevronsRight, IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { notifySuccess } from '@/lib/notify';
import { useSidebarItems } from '../hooks/use-sidebar-items';
import type { SidebarItem } from '../utils/sidebar-items';
import { SIDEBAR_ICONS } from './sidebar-icons';

interface SidebarProps {
  /** Desktop mini mode: icons only, labels in tooltips. */
  collapsed: boolean;
  onToggleCollapse?: () => void;
  /** Called after a click on an item (the mobile drawer closes). */
  onNavigate: () => void;
}

const isActive = (pathname: string, to: string | undefined) =>
  to !== undefined && (pathname === to || pathname.startsWith(`${to}/`));

export function Sidebar({ collapsed, onToggleCollapse, onNavigate }: SidebarProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = useSidebarItems();

  const labelOf = (item: SidebarItem) =>
    'key' in item.label ? t(`nav.${item.label.key}`) : item.label.text;

  const iconOf = (item: SidebarItem) => {
    const Icon = 'key' in item.label ? SIDEBAR_ICONS[item.label.key] : IconCircleDot;
    return <Icon size={20} stroke={1.6} />;
  };

  const select = (item: SidebarItem) => {
    if (item.key === 'newYear') notifySuccess(t('shell.newYearGreeting'));
    onNavigate();
  };

  const renderLink = (item: SidebarItem) => {
    const label = labelOf(item);
    const common = {
      label: collapsed ? undefined : label,
      leftSection: iconOf(item),
      active: isActive(pathname, item.to),
      onClick: () => select(item),
      'aria-label': label,
    };
    const node = item.to ? (
      <NavLink key={item.key} component={Link} to={item.to} {...common} />
    ) : (
      <NavLink key={item.key} component="button" {...common} />
    );
    return collapsed ? (
      <Tooltip key={item.key} label={label} position="right" withArrow>
        {node}
      </Tooltip>
    ) : (
      node
    );
  };

  const renderGroup = (item: SidebarItem, children: SidebarItem[]) => {
    const label = labelOf(item);
    const open = children.some((child) => isActive(pathname, child.to));
    if (!collapsed) {
      return (
        <NavLink
          key={item.key}
          label={label}
          leftSection={iconOf(item)}
          defaultOpened={open}
          childrenOffset={28}
        >
          {children.map(renderLink)}
        </NavLink>
      );
    }
    return (
      <Menu key={item.key} position="right-start" withArrow>
        <Menu.Target>
          <NavLink component="button" leftSection={iconOf(item)} active={open} aria-label={label} />
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>{label}</Menu.Label>
          {children.map((child) => (
            <Menu.Item key={child.key} component={Link} to={child.to ?? '/'} onClick={onNavigate}>
              {labelOf(child)}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
    );
  };

  return (
    <Stack h="100%" gap={0} justify="space-between">
      <ScrollArea type="scroll" style={{ flex: 1 }}>
        <nav aria-label={t('shell.navigation')}>
          {items.map((item) =>
            item.children ? renderGroup(item, item.children) : renderLink(item),
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
