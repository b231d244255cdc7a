import { ActionIcon, Group, Menu } from '@mantine/core';
import { IconDots, IconPlayerPause, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** One entry of a row's "…" menu. */
export interface RowMenuItem {
  label: string;
  onClick: () => void;
  icon?: ReactNode;
  color?: string;
  disabled?: boolean;
  /** Draws a divider above the entry (before the destructive ones). */
  divided?: boolean;
}

/** The enable / disable entry of a row with a status. */
export function toggleMenuItem(t: TFunction, enabled: boolean, onClick: () => void): RowMenuItem {
  return {
    label: enabled ? t('common.disable') : t('common.enable'),
    color: enabled ? 'orange' : 'green',
    icon: enabled ? <IconPlayerPause size={14} /> : <IconPlayerPlay size={14} />,
    onClick,
  };
}

/** The delete entry: red, last, set apart by a divider. */
export function deleteMenuItem(t: TFunction, onClick: () => void): RowMenuItem {
  return {
    label: t('common.delete'),
    color: 'red',
    icon: <IconTrash size={14} />,
    divided: true,
    onClick,
  };
}

interface RowActionsProps {
  /** At most two buttons: what a row is most often opened for. */
  primary: ReactNode;
  /** The rest, in the "…" menu (nothing when empty). */
  menu: RowMenuItem[];
  /** Shows a busy "…" while a menu action runs. */
  busy?: boolean;
  /** Drawers and modals the menu entries open, rendered beside the buttons. */
  children?: ReactNode;
}

/** A table row's actions: two buttons, then a "…" menu with every other action. */
export function RowActions({ primary, menu, busy = false, children }: RowActionsProps) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      {primary}
      {menu.length > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon
              size={22}
              variant="light"
              color="gray"
              aria-label={t('common.more')}
              loading={busy}
              data-testid="row-more"
            >
              <IconDots size={14} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {menu.map((item) => [
              item.divided ? <Menu.Divider key={`${item.label}-divider`} /> : null,
              <Menu.Item
                key={item.label}
                color={item.color}
                leftSection={item.icon}
                disabled={item.disabled}
                onClick={item.onClick}
              >
                {item.label}
              </Menu.Item>,
            ])}
          </Menu.Dropdown>
        </Menu>
      )}
      {children}
    </Group>
  );
}
