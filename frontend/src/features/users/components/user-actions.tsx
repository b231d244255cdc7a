import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { isAdmin, UserStatus, type ManageAction, type UserDto } from '@tollgate/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSessionUser } from '@/features/auth';
import { HistoryButton } from '@/features/history';
import { useManageUser } from '../hooks/use-user-mutations';
import { isDeregistered, userRights } from '../utils/user-state';

/**
 * Row actions: enable only when not activated, disable only when activated, nothing but the
 * history once deregistered. Promote/demote follow the role ladder. What the server would refuse
 * is not offered (see `userRights`); editing oneself goes to the personal tab.
 */
export function UserActions({ user }: { user: UserDto }) {
  // An admin's own changes (who-did-what) are a tab of their history drawer.
  const history = (
    <HistoryButton
      subject={{ kind: 'user', id: user.id }}
      name={user.username}
      actorId={isAdmin(user.role) ? user.id : undefined}
    />
  );
  if (isDeregistered(user))
    return (
      <Group gap={4} wrap="nowrap">
        <Text c="dimmed">—</Text>
        {history}
      </Group>
    );
  return <ManageButtons user={user} history={history} />;
}

function ManageButtons({ user, history }: { user: UserDto; history: ReactNode }) {
  const { t } = useTranslation();
  const manage = useManageUser();
  const rights = userRights(useSessionUser(), user);
  const run = (action: ManageAction) => manage.mutate({ id: user.id, action });
  const busy = manage.isPending;
  // Activated users can be banned, banned ones activated (deregistered rows never get here).
  const toggle =
    user.status === UserStatus.Enabled
      ? ({ action: 'disable', color: 'orange' } as const)
      : ({ action: 'enable', color: 'green' } as const);
  const confirmDeregister = () =>
    modals.openConfirmModal({
      title: t('users.deregisterTitle'),
      children: <Text size="sm">{t('users.deregisterConfirm', { username: user.username })}</Text>,
      labels: { confirm: t('users.deregister'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => run('delete'),
    });
  const action = (label: string, enabled: boolean, onClick: () => void, color?: string) => (
    <Button
      size="compact-xs"
      variant="light"
      color={color}
      disabled={busy || !enabled}
      onClick={onClick}
    >
      {label}
    </Button>
  );

  return (
    <Group gap={4} wrap="nowrap">
      {action(t('users.promote'), rights.promote, () => run('promote'))}
      {action(t('users.demote'), rights.demote, () => run('demote'))}
      {action(t(`users.${toggle.action}`), rights.manage, () => run(toggle.action), toggle.color)}
      <Button
        size="compact-xs"
        variant="light"
        color="gray"
        component={Link}
        to={rights.self ? '/setting' : `/user/edit/${user.id}`}
        disabled={!rights.self && !rights.manage}
      >
        {t('common.edit')}
      </Button>
      {action(t('users.deregister'), rights.manage, confirmDeregister, 'red')}
      {history}
    </Group>
  );
}
