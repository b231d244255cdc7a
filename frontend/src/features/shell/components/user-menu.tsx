import { Avatar, Button, Menu } from '@mantine/core';
import { IconLogout, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { SessionUser } from '@/lib/session';
import { useSignOut } from '@/features/auth';

export function UserMenu({ user, compact }: { user: SessionUser; compact: boolean }) {
  const { t } = useTranslation();
  const signOut = useSignOut();
  const name = user.display_name || user.username;

  return (
    <Menu position="bottom-end" width={180}>
      <Menu.Target>
        <Button
          variant="subtle"
          px="xs"
          leftSection={
            <Avatar size="sm" color="blue">
              {name.slice(0, 1).toUpperCase()}
            </Avatar>
          }
          data-testid="user-menu"
        >
          {compact ? null : name}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.username}</Menu.Label>
        <Menu.Item component={Link} to="/setting" leftSection={<IconSettings size={16} />}>
          {t('nav.setting')}
        </Menu.Item>
        <Menu.Item
          color="red"
          leftSection={<IconLogout size={16} />}
          onClick={() => void signOut()}
        >
          {t('auth.logout')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
