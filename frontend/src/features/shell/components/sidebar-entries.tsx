import { Menu, NavLink, Tooltip } from '@mantine/core';
import { IconCircleDot } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { notifySuccess } from '@/lib/notify';
import type { SidebarItem } from '../utils/sidebar-items';
import { SIDEBAR_ICONS } from './sidebar-icons';

interface EntryProps {
  item: SidebarItem;
  /** Desktop mini mode: icons only, labels in tooltips. */
  collapsed: boolean;
  /** Called after a click on an item (the mobile drawer closes). */
  onNavigate: () => void;
}

const isActive = (pathname: string, to: string | undefined) =>
  to !== undefined && (pathname === to || pathname.startsWith(`${to}/`));

/** An item's text: a translated `nav` label, or the literal name of a chat link. */
function useLabelOf() {
  const { t } = useTranslation();
  return (item: SidebarItem) =>
    'key' in item.label ? t(`nav.${item.label.key}`) : item.label.text;
}

function itemIcon(item: SidebarItem) {
  const Icon = 'key' in item.label ? SIDEBAR_ICONS[item.label.key] : IconCircleDot;
  return <Icon size={20} stroke={1.6} />;
}

/** One navigation entry; the New Year item greets instead of navigating. */
export function SidebarLink({ item, collapsed, onNavigate }: EntryProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const label = useLabelOf()(item);
  const common = {
    label: collapsed ? undefined : label,
    leftSection: itemIcon(item),
    active: isActive(pathname, item.to),
    onClick: () => {
      if (item.key === 'newYear') notifySuccess(t('shell.newYearGreeting'));
      onNavigate();
    },
    'aria-label': label,
  };
  const node = item.to ? (
    <NavLink component={Link} to={item.to} {...common} />
  ) : (
    <NavLink component="button" {...common} />
  );
  return collapsed ? (
    <Tooltip label={label} position="right" withArrow>
      {node}
    </Tooltip>
  ) : (
    node
  );
}

/** An entry with children: a folding group, or in mini mode a menu opening to the right. */
export function SidebarGroup({
  item,
  entries,
  collapsed,
  onNavigate,
}: EntryProps & { entries: SidebarItem[] }) {
  const { pathname } = useLocation();
  const labelOf = useLabelOf();
  const label = labelOf(item);
  const open = entries.some((child) => isActive(pathname, child.to));
  if (!collapsed) {
    return (
      <NavLink label={label} leftSection={itemIcon(item)} defaultOpened={open} childrenOffset={28}>
        {entries.map((child) => (
          <SidebarLink key={child.key} item={child} collapsed={collapsed} onNavigate={onNavigate} />
        ))}
      </NavLink>
    );
  }
  return (
    <Menu position="right-start" withArrow>
      <Menu.Target>
        <NavLink component="button" leftSection={itemIcon(item)} active={open} aria-label={label} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{label}</Menu.Label>
        {entries.map((child) => (
          <Menu.Item key={child.key} component={Link} to={child.to ?? '/'} onClick={onNavigate}>
            {labelOf(child)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
